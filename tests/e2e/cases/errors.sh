# every error is exit 2 with a message on stderr, and nothing on stdout
for args in "compare /nonexistent $EX/vendor" "compare $EX/upstream" "scan $EX/upstream" \
	"compare --format nope $EX/upstream $EX/vendor" "compare --only grimy $EX/upstream $EX/vendor" \
	"show $EX/upstream/Makefile" "frobnicate" "scan --jobs 0 -o x.db $EX/upstream" \
	"scan --reuse $EX/vendor -o x.db $EX/upstream" "compare $EX/upstream git:no/such/repo@v1.0"; do
	s=0; $TD $args 2>err.txt || s=$?
	echo "$s $(head -c 200 err.txt | head -n 1)"
done
