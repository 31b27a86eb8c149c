#!/bin/sh
# Instructions each rule pack costs against native code, counted by
# valgrind's callgrind: unlike time, a count does not move with the load of a
# shared machine, so one run gives ratios that can be read. Each count is
# `towerlab simulate --packs P --bots B --games G --threads 1 --seed 5`, taken
# as a ratio to `native:tower` (and Black Tower's rows also to
# `native:black-tower`) with the same bots (above 1: the rule leaves
# less to do, e.g. fewer floors placed), two ways: a game (the count of G
# games less the count of one, over G - 1: loading left out, as
# `cargo bench --bench packs` leaves it out) and the whole command (loading,
# games, summary).
#
# The cost report's figures are checked against callgrind by benches/cost.sh.
#
# Usage: benches/instructions.sh [BINARY] [RANDOM_GAMES] [GREEDY_GAMES] [ROWS] [MCTS_GAMES]
#   (defaults: target/release/towerlab, 1000, 100, every row, 0); ROWS, an
#   extended regular expression, keeps the rows whose packs match it (the
#   packs that act: 'bell|warden|tithe|quarry|shadow|pilgrims|raw-scores');
#   MCTS_GAMES, at least 2, adds a column for `mcts` bots, a game (a few
#   games: an mcts game costs some fifty greedy ones); run from the
#   repository.
set -eu
bin=${1:-target/release/towerlab}
random_games=${2:-1000}
greedy_games=${3:-100}
only=${4:-.}
mcts_games=${5:-0}
command -v valgrind >/dev/null || { echo "error: valgrind is not installed" >&2; exit 2; }
[ -x "$bin" ] || { echo "error: no binary at $bin (cargo build --release)" >&2; exit 2; }

count() { # PACKS BOTS GAMES -> instructions
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" simulate \
        --packs "$1" --bots "$2" --games "$3" --threads 1 --seed 5 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

# Every pack row against `native:tower`; Black Tower's rows also against
# `native:black-tower`, the same game written natively.
rows="native:tower tower tower,black-tower tower,black-tower,house/no-gaps
tower,./benches/packs/leader-builds-not tower,./benches/packs/runaway-builds-not
tower,./benches/packs/open-features-only tower,./benches/packs/scored-ransom
tower,./benches/packs/leader-tops-not tower,./benches/packs/guard-tile
tower,./benches/packs/guard-tile-read"
for example in docs/examples/*/; do
    rows="$rows tower,./${example%/}"
done
black_rows="native:black-tower tower,black-tower tower,black-tower,house/no-gaps
tower,black-tower,./benches/packs/raw-scores"

# A baseline's counts, once: BASELINE BOTS GAMES -> "one all".
baseline() {
    echo "$(count "$1" "$2" 1) $(count "$1" "$2" "$3")"
}

# A row's two ratios for one kind of bots: PACKS BOTS GAMES BASELINE ->
# "a-game whole-command".
ratios() {
    one=$(count "$1" "$2" 1)
    all=$(count "$1" "$2" "$3")
    echo "$4" | awk -v o="$one" -v a="$all" \
        '{ printf "%.2f %.2f", ($2 - $1) / (a - o), $2 / a }'
}

# The table of ROWS against the native rules BASELINE.
table() {
    base_random=$(baseline "$1" random,random "$random_games")
    base_greedy=$(baseline "$1" greedy,greedy "$greedy_games")
    if [ "$mcts_games" -ge 2 ]; then
        base_mcts=$(baseline "$1" mcts,mcts "$mcts_games")
    fi
    echo "Against \`$1\`:"
    echo
    mcts_head="" mcts_rule=""
    if [ "$mcts_games" -ge 2 ]; then
        mcts_head=" mcts bots, a game |" mcts_rule="---|"
    fi
    echo "| rules | random bots, a game | greedy bots, a game | random bots, whole command | greedy bots, whole command |$mcts_head"
    echo "|---|---|---|---|---|$mcts_rule"
    for packs in $(printf '%s\n' $2 | grep -E "$only"); do
        r=$(ratios "$packs" random,random "$random_games" "$base_random")
        g=$(ratios "$packs" greedy,greedy "$greedy_games" "$base_greedy")
        m=""
        if [ "$mcts_games" -ge 2 ]; then
            m=" $(ratios "$packs" mcts,mcts "$mcts_games" "$base_mcts" | cut -d' ' -f1) |"
        fi
        set -- $r $g
        echo "| \`$packs\` | $1 | $3 | $2 | $4 |$m"
    done
    echo
}

table native:tower "$rows"
table native:black-tower "$black_rows"
