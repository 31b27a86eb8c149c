#!/bin/sh
# What a 2-player Tower game between two bots of a kind costs, in greedy
# games: CPU seconds (user) of `towerlab simulate --bots B --games G --seed 1
# --threads 1`, as users run it, over the CPU seconds of one greedy-vs-greedy
# game measured the same way in the same round. The bots are timed one after
# the other, in rounds, so that a change of the machine's load shows as a
# spread between rounds rather than as a wrong ratio.
#
# Usage: [GAMES=N] benches/bot_cost.sh [BINARY] [ROUNDS] [BOT ...]
#   (defaults: target/release/towerlab, 3, mcts mcts-baseline); run from the
#   repository. Each bot plays GAMES games a round (default 10), greedy 200
#   times as many. A 10-game round of the default bot takes about 1.5 s and
#   moves some 15% with a shared machine's load; GAMES=40 narrows that.
set -eu
bin=${1:-target/release/towerlab}
rounds=${2:-3}
games=${GAMES:-10}
case $games in
    ''|*[!0-9]*|0) echo "error: GAMES must be a whole number of games, at least 1 (got '$games')" >&2; exit 2 ;;
esac
greedy_games=$((games * 200))
[ $# -ge 2 ] && shift 2 || shift $#
[ $# -gt 0 ] || set -- mcts mcts-baseline
[ -x "$bin" ] || { echo "error: no binary at $bin (cargo build --release)" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "error: /usr/bin/time is not installed" >&2; exit 2; }

cpu() { # BOTS GAMES -> user seconds
    { /usr/bin/time -f %U "$bin" simulate --variant tower --bots "$1" --games "$2" \
        --seed 1 --threads 1 >/dev/null; } 2>&1 | tail -n 1
}

round=1
while [ "$round" -le "$rounds" ]; do
    greedy=$(cpu greedy "$greedy_games")
    line="round $round: greedy $greedy_games games ${greedy} s"
    for bot in "$@"; do
        s=$(cpu "$bot" "$games")
        ratio=$(awk -v b="$s" -v g="$greedy" -v n="$games" -v m="$greedy_games" \
            'BEGIN { printf "%.0f", (b / n) / (g / m) }')
        line="$line | $bot $games games ${s} s = $ratio greedy games"
    done
    echo "$line"
    round=$((round + 1))
done
