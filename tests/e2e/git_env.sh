# Sourced by the tests that build git repositories (e2e cases,
# tests/data/upstream): a git that reads no system or user configuration, a
# fixed author and committer (Dev) and a fixed date, so that commit ids and
# the outputs that show them stay the same from run to run; g runs git with
# main as the first branch and no signing. Plain sh: a sourced file takes no
# arguments there.
export GIT_CONFIG_NOSYSTEM=1 HOME="$PWD" GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org \
	GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.org \
	GIT_AUTHOR_DATE='2024-01-02T03:04:05Z' GIT_COMMITTER_DATE='2024-01-02T03:04:05Z'
g() { git -c init.defaultBranch=main -c commit.gpgsign=false "$@"; }
