# A git operand keeps the name it was given: the header shows the branch
# or tag beside the commit id, with git:REPO@REV and with --repo. A missing
# repository is named apart from the revision asked for.
export GIT_CONFIG_NOSYSTEM=1 HOME=/nonexistent GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' \
	GIT_COMMITTER_DATE='2024-01-01T00:00:00Z'
g() { git -c user.name=t -c user.email=t@example.com -C repo "$@"; }
git init -q -b main repo
seq 1 400 | sed 's/^/line /' >repo/a.c
g add a.c && g commit -qm one && g tag v2023.10
sed -i 's/^line 7$/line seven/' repo/a.c
g checkout -qb vendor/v2023.10-bsp && g commit -qam two
echo "== git:REPO@REV"
$TD compare -q --no-lines git:repo@v2023.10 git:repo@vendor/v2023.10-bsp | head -3 || true
echo "== --repo"
$TD compare -q --no-lines --repo repo v2023.10 vendor/v2023.10-bsp -f json | grep -E '"(upstream|target|base_version)"' || true
echo "== no revision given: the commit alone"
$TD compare -q --no-lines git:repo git:repo@v2023.10 | head -2 || true
echo "== a missing repository"
$TD compare -q git:missing/repo@v2023.10 git:repo 2>&1 || echo "exit $?"
