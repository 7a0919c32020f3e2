/* Functions that are too easy to misuse; any use fails to compile (after git's banned.h). */
#ifndef TD_BANNED_H
#define TD_BANNED_H

#define TD_BANNED(func) sorry_##func##_is_banned

#undef strcpy
#define strcpy(x, y) TD_BANNED(strcpy)
#undef strcat
#define strcat(x, y) TD_BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) TD_BANNED(strncpy)
#undef sprintf
#define sprintf(...) TD_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) TD_BANNED(vsprintf)
#undef strtok
#define strtok(x, y) TD_BANNED(strtok)
#undef gets
#define gets(x) TD_BANNED(gets)

#endif
