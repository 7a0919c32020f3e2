/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H
typedef unsigned int u32;
typedef unsigned long long u64;
#endif
