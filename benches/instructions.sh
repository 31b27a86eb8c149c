#!/bin/sh
# Instructions each rule pack costs against native code, counted by
# valgrind's callgrind: unlike time, a count does not move with the load of a
# shared machine, so one run gives ratios that can be read. Each row is
# `towerlab simulate --packs P --bots B --games G --threads 1 --seed 5`, whole
# (loading, games, summary), taken as a ratio to `native:tower` with the same
# bots (above 1: the rule leaves less to do, e.g. fewer floors placed).
#
# Usage: benches/instructions.sh [BINARY] [RANDOM_GAMES] [GREEDY_GAMES]
#   (defaults: target/release/towerlab, 1000, 100); run from the repository.
set -eu
bin=${1:-target/release/towerlab}
random_games=${2:-1000}
greedy_games=${3:-100}
command -v valgrind >/dev/null || { echo "error: valgrind is not installed" >&2; exit 2; }
[ -x "$bin" ] || { echo "error: no binary at $bin (cargo build --release)" >&2; exit 2; }

count() { # PACKS BOTS GAMES -> instructions
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" simulate \
        --packs "$1" --bots "$2" --games "$3" --threads 1 --seed 5 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

rows="native:tower tower tower,black-tower tower,black-tower,house/no-gaps
tower,./benches/packs/leader-builds-not tower,./benches/packs/runaway-builds-not
tower,./benches/packs/open-features-only tower,./benches/packs/scored-ransom
tower,./benches/packs/leader-tops-not"
for example in docs/examples/*/; do
    rows="$rows tower,./${example%/}"
done

native_random=$(count native:tower random,random "$random_games")
native_greedy=$(count native:tower greedy,greedy "$greedy_games")
echo "| rules | random bots | greedy bots |"
echo "|---|---|---|"
for packs in $rows; do
    r=$(count "$packs" random,random "$random_games")
    g=$(count "$packs" greedy,greedy "$greedy_games")
    awk -v p="$packs" -v r="$r" -v g="$g" -v nr="$native_random" -v ng="$native_greedy" \
        'BEGIN { printf "| `%s` | %.2f | %.2f |\n", p, nr / r, ng / g }'
done
