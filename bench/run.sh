#!/usr/bin/env bash
# Time treedrift against plain tools on a real kernel tree.
#
# Usage: bench/run.sh
#
# Environment:
#   TREEDRIFT_BENCH_CACHE  data and results (default /var/cache/treedrift-bench)
#   TREEDRIFT              treedrift binary (default build/cli/treedrift in the repo)
#   BENCH_RUNS             timed runs per command (default 3)
#   BENCH_WARMUP           untimed runs per command before timing (default 1)
#   BENCH_TREE             tree to scan (default trees/linux-6.1.192-3)
#   BENCH_COMPARE_TREE     tree compared against the scan DB
#                          (default trees/linux-6.12.118-1~deb12u1)
#   BENCH_TLSH             0 skips the tlsh -r reference row (the slowest)
#   BENCH_TLSH_LOOPS       TLSH counting loops to time the treedrift rows with,
#                          e.g. "avx512 pair scalar" (each forced with
#                          TD_TLSH_LOOP); default: only the loop treedrift picks
#   BENCH_WORK             scratch DBs (default work/ in the cache)
#   BENCH_RESULTS          reports (default results/ in the cache)
#
# Prints a Markdown report and saves it as results/latest.md in the cache.
set -euo pipefail

REPO_ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
export TREEDRIFT_BENCH_CACHE=${TREEDRIFT_BENCH_CACHE:-/var/cache/treedrift-bench}
CACHE=$TREEDRIFT_BENCH_CACHE
TREEDRIFT=${TREEDRIFT:-$REPO_ROOT/build/cli/treedrift}
RUNS=${BENCH_RUNS:-3}
WARMUP=${BENCH_WARMUP:-1}
TREE=${BENCH_TREE:-$CACHE/trees/linux-6.1.192-3}
OTHER=${BENCH_COMPARE_TREE:-$CACHE/trees/linux-6.12.118-1~deb12u1}
WANT_TLSH=${BENCH_TLSH:-1}
read -r -a LOOPS <<<"${BENCH_TLSH_LOOPS:-}"
WORK=${BENCH_WORK:-$CACHE/work}
RESULTS=${BENCH_RESULTS:-$CACHE/results}
RAW=$RESULTS/raw
GNU_TIME=/usr/bin/time

log() { printf 'bench %(%T)T: %s\n' -1 "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Result rows, filled in by bench().
ROW_ID=() ROW_NAME=() ROW_CMD=() ROW_MEAN=() ROW_SD=() ROW_CPU=() ROW_RSS=() ROW_LO=() ROW_HI=()
NOTES=()
FAILED=0

# tree_stats DIR: "FILES BYTES" over regular files.
tree_stats() {
    find "$1" -type f -printf '%s\n' | awk '{ n++; b += $1 } END { printf "%d %d\n", n, b }'
}

ensure_gnu_time() {
    [[ -x $GNU_TIME ]] && return 0
    log "$GNU_TIME missing; installing the 'time' package"
    if [[ $(id -u) -eq 0 ]] && apt-get install -y -q time >&2; then
        return 0
    fi
    log "could not install 'time'; peak RSS will be reported as n/a"
    return 1
}

# peak_rss_kb PREPARE CMD IGNORE_FAIL: run CMD once under GNU time and print
# the peak RSS in KB of the largest process it ran. For a pipeline this is
# the largest single process, not a sum.
peak_rss_kb() {
    local prepare=$1 cmd=$2 ignore=$3 out rc=0
    [[ -x $GNU_TIME ]] || { echo n/a; return 0; }
    out=$(mktemp "$WORK/rss.XXXXXX")
    [[ -z $prepare ]] || bash -c "$prepare"
    "$GNU_TIME" -f %M -o "$out" bash -c "$cmd" >/dev/null 2>>"$RAW/stderr.log" || rc=$?
    if [[ $rc -ne 0 && $ignore -eq 0 ]]; then
        rm -f -- "$out"
        return 1
    fi
    tail -n 1 "$out"
    rm -f -- "$out"
}

# time_hyperfine ID PREPARE CMD IGNORE_FAIL: print "MEAN STDDEV CPU MIN MAX"
# in seconds, CPU being the mean user + system time.
time_hyperfine() {
    local id=$1 prepare=$2 cmd=$3 ignore=$4
    local args=(--shell=bash --warmup "$WARMUP" --runs "$RUNS"
                --export-csv "$RAW/$id.csv" --export-json "$RAW/$id.json")
    [[ $ignore -eq 0 ]] || args+=(--ignore-failure)
    [[ -z $prepare ]] || args+=(--prepare "$prepare")
    hyperfine "${args[@]}" -n "$id" "$cmd" >&2 || return 1
    # CSV columns: command,mean,stddev,median,user,system,min,max
    awk -F, 'NR == 2 { printf "%s %s %f %s %s\n", $2, ($3 == "" ? "0" : $3), $5 + $6, $7, $8 }' "$RAW/$id.csv"
}

# time_fallback ID PREPARE CMD IGNORE_FAIL: like time_hyperfine, using GNU
# time for every run; prints "MEAN STDDEV CPU PEAK_RSS_KB MIN MAX".
time_fallback() {
    local id=$1 prepare=$2 cmd=$3 ignore=$4 i rc
    local log_file=$RAW/$id.time
    : >"$log_file"
    for ((i = 0; i < WARMUP + RUNS; i++)); do
        [[ -z $prepare ]] || bash -c "$prepare"
        rc=0
        "$GNU_TIME" -f '%e %M %U %S' -o "$RAW/$id.last" bash -c "$cmd" \
            >/dev/null 2>>"$RAW/stderr.log" || rc=$?
        [[ $rc -eq 0 || $ignore -eq 1 ]] || return 1
        ((i < WARMUP)) || tail -n 1 "$RAW/$id.last" >>"$log_file"
    done
    rm -f -- "$RAW/$id.last"
    awk '{ n++; s += $1; ss += $1 * $1; c += $3 + $4; if ($2 > m) m = $2
           if (n == 1 || $1 < lo) lo = $1; if (n == 1 || $1 > hi) hi = $1 }
         END {
             mean = s / n
             var = n > 1 ? (ss - n * mean * mean) / (n - 1) : 0
             printf "%f %f %f %d %f %f\n", mean, (var > 0 ? sqrt(var) : 0), c / n, m, lo, hi
         }' "$log_file"
}

# bench ID LABEL IGNORE_FAIL PREPARE CMD: time CMD and add a result row.
bench() {
    local id=$1 label=$2 ignore=$3 prepare=$4 cmd=$5
    local mean sd cpu rss lo hi stats

    log "timing $label: $cmd"
    if [[ $HAVE_HYPERFINE -eq 1 ]]; then
        if stats=$(time_hyperfine "$id" "$prepare" "$cmd" "$ignore") \
            && rss=$(peak_rss_kb "$prepare" "$cmd" "$ignore"); then
            read -r mean sd cpu lo hi <<<"$stats"
        else
            mean=failed sd=- cpu=- rss=- lo=- hi=-
        fi
    else
        if stats=$(time_fallback "$id" "$prepare" "$cmd" "$ignore"); then
            read -r mean sd cpu rss lo hi <<<"$stats"
        else
            mean=failed sd=- cpu=- rss=- lo=- hi=-
        fi
    fi
    if [[ $mean == failed ]]; then
        log "$label failed (see $RAW/stderr.log)"
        FAILED=1
    fi
    ROW_ID+=("$id") ROW_NAME+=("$label") ROW_CMD+=("$cmd") ROW_MEAN+=("$mean") ROW_SD+=("$sd")
    ROW_CPU+=("$cpu") ROW_RSS+=("$rss") ROW_LO+=("$lo") ROW_HI+=("$hi")
}

skip() {
    log "skipping $1: $2"
    NOTES+=("Skipped $1: $2.")
}

# row_field ID ARRAY: the value of ARRAY for the row with that id, or "".
row_field() {
    local id=$1 i
    local -n arr=$2
    for i in "${!ROW_ID[@]}"; do
        [[ ${ROW_ID[i]} == "$id" ]] && { echo "${arr[i]}"; return 0; }
    done
    echo ""
}

# ratio_of MEAN FLOOR: MEAN / FLOOR to two places, or "-" without a floor.
ratio_of() {
    if [[ -z $2 || $2 == failed ]]; then
        echo -
    else
        awk -v m="$1" -v f="$2" 'BEGIN { printf "%.2f", m / f }'
    fi
}

# check LABEL ID LIMIT_S [MAX_RATIO [MAX_RSS_MB]]: one line of the target list,
# its ratio against the faster of the two cat rows.
check() {
    local label=$1 id=$2 limit=$3 max_ratio=${4:-} max_rss=${5:-}
    local mean floor rss verdict lo hi kept
    mean=$(row_field "$id" ROW_MEAN)
    lo=$(row_field "$id" ROW_LO)
    hi=$(row_field "$id" ROW_HI)
    # The floor of a ratio is the faster cat: where cat's own page faults
    # make it slow, the ratio to it would flatter every row.
    floor=${ROW_MEAN[0]}
    kept=$(row_field catkept ROW_MEAN)
    if [[ -n $kept && $kept != failed ]] &&
        { [[ $floor == failed ]] || awk -v k="$kept" -v f="$floor" 'BEGIN { exit !(k < f) }'; }; then
        floor=$kept
    fi
    rss=$(row_field "$id" ROW_RSS)
    if [[ -z $mean || $mean == failed ]]; then
        echo "- $label: not measured"
        return 0
    fi
    verdict=$(awk -v m="$mean" -v l="$limit" -v f="$floor" -v r="$max_ratio" -v k="$rss" -v x="$max_rss" '
        BEGIN {
            ok = m <= l
            if (r != "" && f != "failed" && f > 0) ok = ok && m / f <= r
            if (x != "" && k ~ /^[0-9]+$/) ok = ok && k / 1024 < x
            print (ok ? "met" : "not met")
        }')
    echo "- $label: **$verdict** ($(printf '%.2f' "$mean") s, $(ratio_of "$mean" "${ROW_MEAN[0]}")× cat, $(
        ratio_of "$mean" "$kept")× cat with its buffer kept; runs $(printf '%.2f' "$lo") to $(printf '%.2f' "$hi") s)"
}

# loop_id LOOP, loop_label LOOP: the row id and label suffixes of a forced loop.
loop_id() { [[ -z $1 ]] || echo "_$1"; }
loop_label() { [[ -z $1 ]] || echo " [$1]"; }

targets() {
    local loop id label
    echo "Targets (wall time, this run):"
    echo
    for loop in "${LOOPS[@]:-}"; do
        id=$(loop_id "$loop") label=$(loop_label "$loop")
        TD_TLSH_LOOP=$loop "$TREEDRIFT" --version >/dev/null 2>&1 || continue
        check "scan with all threads ≤ 4 s and ≤ 2× cat$label" "scan$id" 4 2
        check "scan --jobs 1 ≤ 5 s$label" "scan1$id" 5
        check "compare 6.12 vs the 6.1 DB ≤ 6 s, peak RSS < 500 MB$label" "compare$id" 6 "" 500
        # Issue 21: where the loop is not the AVX-512 one.
        if [[ $(TD_TLSH_LOOP=$loop "$TREEDRIFT" --version 2>/dev/null) != *"loop: avx512"* ]]; then
            check "without AVX-512: scan (2 threads) ≤ 1.5× cat$label" "scan$id" 1e9 1.5
            check "without AVX-512: scan --jobs 1 ≤ 2.5× cat$label" "scan1$id" 1e9 2.5
            check "without AVX-512: compare ≤ 2.0× cat$label" "compare$id" 1e9 2.0
        fi
    done
    check "scan --reuse of the unchanged tree ≤ 1 s" rescan 1
}

# cpu_line: the model name, family and model, and the extensions the TLSH
# and SHA-256 loops look for.
cpu_line() {
    awk -F': ' '
        /^model name/ && !name { name = $2 }
        /^cpu family/ && !fam { fam = $2 }
        /^model\t/ && !mod { mod = $2 }
        /^(flags|Features)/ && !fl { fl = " " $2 " " }
        END {
            n = split("avx2 avx512f avx512vbmi avx512_vbmi2 sha_ni asimd sha2", want, " ")
            for (i = 1; i <= n; i++) if (index(fl, " " want[i] " ")) have = have " " want[i]
            printf "%s (family %s, model %s;%s)", name, fam, mod, have
        }' /proc/cpuinfo
}

report() {
    local floor=${ROW_MEAN[0]} kept i ratio ratio_kept mean sd cpu rss range
    local files bytes other_files other_bytes
    kept=$(row_field catkept ROW_MEAN)
    read -r files bytes < <(tree_stats "$TREE")
    read -r other_files other_bytes < <(tree_stats "$OTHER")

    echo "# treedrift benchmark"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "- CPU: $(cpu_line)"
    if [[ -x $TREEDRIFT ]]; then
        echo "- TLSH loop: $("$TREEDRIFT" --version | sed 's/.*TLSH loop: \([a-z0-9]*\).*/\1/') by default$(
            [[ ${#LOOPS[@]} -eq 0 ]] || echo "; rows marked [LOOP] forced with TD_TLSH_LOOP")"
    fi
    echo "- cores: $(nproc) available, $(grep -c '^processor' /proc/cpuinfo) online"
    echo "- memory: $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
    echo "- timer: $TIMER (warm page cache, $WARMUP warm-up + $RUNS timed runs)"
    echo "- tree: \`$TREE\` ($files files, $bytes bytes)"
    echo "- compare tree: \`$OTHER\` ($other_files files, $other_bytes bytes)"
    echo
    echo "| command | mean [s] | stddev [s] | min–max [s] | × cat | × cat, buffer kept | user+sys [s] | peak RSS [MB] |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for i in "${!ROW_NAME[@]}"; do
        mean=${ROW_MEAN[i]} sd=${ROW_SD[i]} cpu=${ROW_CPU[i]} rss=${ROW_RSS[i]} ratio=- ratio_kept=- range=-
        if [[ $mean != failed ]]; then
            ratio=$(ratio_of "$mean" "$floor")
            ratio_kept=$(ratio_of "$mean" "$kept")
            mean=$(printf '%.3f' "$mean")
            sd=$(printf '%.3f' "$sd")
            cpu=$(printf '%.2f' "$cpu")
            range="$(printf '%.2f' "${ROW_LO[i]}")–$(printf '%.2f' "${ROW_HI[i]}")"
        fi
        [[ $rss == n/a || $rss == - ]] || rss=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
        echo "| ${ROW_NAME[i]} | $mean | $sd | $range | $ratio | $ratio_kept | $cpu | $rss |"
    done
    echo
    targets
    echo
    echo "Commands:"
    echo
    for i in "${!ROW_NAME[@]}"; do
        echo "- ${ROW_NAME[i]}: \`${ROW_CMD[i]}\`"
    done
    if [[ ${#NOTES[@]} -gt 0 ]]; then
        echo
        for i in "${!NOTES[@]}"; do
            echo "${NOTES[i]}"
        done
    fi
}

main() {
    "$REPO_ROOT/bench/fetch.sh"

    [[ -d $TREE ]] || die "no tree at $TREE"
    [[ -d $OTHER ]] || die "no tree at $OTHER"
    mkdir -p "$WORK" "$RAW"
    : >"$RAW/stderr.log"

    if command -v hyperfine >/dev/null; then
        HAVE_HYPERFINE=1
        TIMER="hyperfine $(hyperfine --version | awk '{ print $2 }')"
        ensure_gnu_time || true
    else
        HAVE_HYPERFINE=0
        TIMER="GNU time (hyperfine not found)"
        ensure_gnu_time || die "neither hyperfine nor GNU time is available"
    fi

    local tree other db db2 td
    printf -v tree '%q' "$TREE"
    printf -v other '%q' "$OTHER"
    printf -v db '%q' "$WORK/scan.db"
    printf -v db2 '%q' "$WORK/rescan.db"
    printf -v td '%q' "$TREEDRIFT"

    log "warming the page cache"
    find "$TREE" "$OTHER" -type f -print0 | xargs -0 cat >/dev/null

    bench cat "cat (I/O floor)" 0 "" \
        "find $tree -type f -print0 | xargs -0 cat"
    # The same cat, its buffer kept: GNU cat allocates a 128 KiB buffer for
    # each file, which glibc maps and unmaps each time (a freed mapping
    # raises its threshold to the same size, and the next one is mapped
    # again), so each file costs page faults, dear on some VMs. With the
    # threshold above that size and the heap not trimmed, the buffer is
    # the same memory from file to file.
    bench catkept "cat, buffer kept (I/O floor)" 0 "" \
        "find $tree -type f -print0 | GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4194304:glibc.malloc.trim_threshold=67108864 xargs -0 cat"
    bench sha256 "openssl dgst -sha256" 0 "" \
        "find $tree -type f -print0 | xargs -0 openssl dgst -sha256"
    if [[ $WANT_TLSH == 0 ]]; then
        skip "tlsh -r" "BENCH_TLSH=0"
    elif command -v tlsh >/dev/null; then
        # tlsh 3.4.4 (Debian tlsh-tools) segfaults in -r mode once a walk
        # passes about 39,700 files, so it gets one walk per top-level
        # directory, and one -f call per top-level file.
        bench tlsh "tlsh -r (reference)" 0 "" \
            "find $tree -mindepth 1 -maxdepth 1 -type d -print0 | xargs -0 -n1 tlsh -r && find $tree -maxdepth 1 -type f -print0 | xargs -0 -n1 tlsh -f"
    else
        skip "tlsh -r" "tlsh not installed (Debian package tlsh-tools)"
    fi

    rm -f -- "$WORK/scan.db" "$WORK/rescan.db"
    if [[ -x $TREEDRIFT ]]; then
        local loop id label env have_db=0
        [[ ${#LOOPS[@]} -gt 0 ]] || LOOPS=("")
        for loop in "${LOOPS[@]}"; do
            id=$(loop_id "$loop") label=$(loop_label "$loop") env=
            if [[ -n $loop ]]; then
                printf -v env 'TD_TLSH_LOOP=%q ' "$loop"
                if ! TD_TLSH_LOOP=$loop "$TREEDRIFT" --version >/dev/null 2>&1; then
                    skip "the rows of loop $loop" "this CPU cannot run it"
                    continue
                fi
            fi
            bench "scan1$id" "treedrift scan --jobs 1$label" 0 "rm -f $db" \
                "$env$td scan $tree -o $db --jobs 1"
            bench "scan$id" "treedrift scan (all threads)$label" 0 "rm -f $db" \
                "$env$td scan $tree -o $db"
            if [[ ${ROW_MEAN[-1]} != failed && -f $WORK/scan.db ]]; then
                have_db=1
                # compare exits 1 when it finds drift, which it does here.
                # The target row measures what earlier tables measured (no line
                # counts); the next one what line counts add, reading both trees again.
                # Copy verification reads the scanned tree again: each run first
                # reads it, untimed, so that a VM that holds its page cache to a
                # few GB has it cached as the other rows have theirs.
                warm="find $tree -type f -print0 | xargs -0 cat >/dev/null"
                bench "compare$id" "treedrift compare --no-lines (DB vs ${OTHER##*/})$label" 1 "$warm" \
                    "$env$td compare --no-lines $db $other"
                bench "comparelines$id" "treedrift compare, line counts (DB vs ${OTHER##*/})$label" 1 "$warm" \
                    "$env$td compare $db $other"
            fi
        done
        if [[ $have_db -eq 1 ]]; then
            bench rescan "treedrift scan --reuse (unchanged)" 0 "rm -f $db2" \
                "$td scan $tree -o $db2 --reuse $db"
        else
            skip "treedrift compare and --reuse rescan" "no scan DB was produced"
        fi
    else
        skip "treedrift rows" "no treedrift binary at $TREEDRIFT (set TREEDRIFT or build it)"
    fi

    local stamp
    stamp=$(date -u +%Y%m%d-%H%M%S)
    report | tee "$RESULTS/latest.md"
    cp -- "$RESULTS/latest.md" "$RESULTS/$stamp.md"
    log "saved $RESULTS/latest.md"
    return "$FAILED"
}

main "$@"
