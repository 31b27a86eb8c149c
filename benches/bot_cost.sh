#!/bin/sh
# What a 2-player Tower game between two bots of a kind costs, in greedy
# games: CPU seconds (user) of `towerlab simulate --bots B --games G --seed 1
# --threads 1`, as users run it, over the CPU seconds of one greedy-vs-greedy
# game measured the same way in the same round. The bots are timed one after
# the other, in rounds, so that a change of the machine's load shows as a
# spread between rounds rather than as a wrong ratio.
#
# Usage: benches/bot_cost.sh [BINARY] [ROUNDS] [BOT ...]
#   (defaults: target/release/towerlab, 3, mcts mcts-classic); run from the
#   repository. Each bot plays 10 games a round, greedy 2,000.
set -eu
bin=${1:-target/release/towerlab}
rounds=${2:-3}
[ $# -ge 2 ] && shift 2 || shift $#
[ $# -gt 0 ] || set -- mcts mcts-classic
[ -x "$bin" ] || { echo "error: no binary at $bin (cargo build --release)" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "error: /usr/bin/time is not installed" >&2; exit 2; }

cpu() { # BOTS GAMES -> user seconds
    { /usr/bin/time -f %U "$bin" simulate --variant tower --bots "$1" --games "$2" \
        --seed 1 --threads 1 >/dev/null; } 2>&1 | tail -n 1
}

round=1
while [ "$round" -le "$rounds" ]; do
    greedy=$(cpu greedy 2000)
    line="round $round: greedy 2000 games ${greedy} s"
    for bot in "$@"; do
        s=$(cpu "$bot" 10)
        ratio=$(awk -v b="$s" -v g="$greedy" 'BEGIN { printf "%.0f", (b / 10) / (g / 2000) }')
        line="$line | $bot 10 games ${s} s = $ratio greedy games"
    done
    echo "$line"
    round=$((round + 1))
done
