# TD_TLSH_LOOP forces the TLSH counting loop: --version names it, every loop
# gives the same digests, and a loop this CPU cannot run is an error (exit 2)
TD_TLSH_LOOP=scalar "$TD" --version
find "$EX/upstream" -type f | LC_ALL=C sort >files.txt
for loop in scalar pair avx2 avx512 auto; do
	if TD_TLSH_LOOP=$loop "$TD" --version >/dev/null 2>&1; then
		xargs -d '\n' env TD_TLSH_LOOP=$loop "$TD" hash <files.txt >"hash.$loop" 2>&1 || true
	else
		cp hash.scalar "hash.$loop"   # not on this CPU
	fi
done
cmp hash.scalar hash.pair && cmp hash.scalar hash.avx2 && cmp hash.scalar hash.avx512 && cmp hash.scalar hash.auto && echo "same digests"
grep -c '^T1' hash.scalar
s=0; TD_TLSH_LOOP=nonsense "$TD" --version 2>err.txt || s=$?
echo "exit $s"
sed 's/(it can run:.*)/(it can run: ...)/' err.txt
