#!/bin/sh
# Do the bots play what a rule pays? For each rule of a kind no bot was
# written for (tests/packs: an income, end scores, a payment at a random
# draw, a strength change, a floor worth a floor later) and every pack of
# docs/examples, two arenas on the same deals, seats rotated: `greedy`
# against `random`, and `mcts` against `greedy`. Prints one row a pack:
# each arena's win share of the first bot with its 95% interval.
#
# Usage: [GAMES=N] [THREADS=T] [SEEDS="S ..."] benches/rule_bots.sh [BINARY] [PACK ...]
#   (defaults: 400 games, 2 threads, seed 1, target/release/towerlab, every
#   pack named above); run from the repository. A pack is a folder; one
#   with a variant.toml is played as that variant, any other over `tower`.
#   With several SEEDS each arena is played GAMES games per seed, and the
#   row pools them: its share and its 95% Wilson interval are over every
#   game (`SEEDS="1 2 3 4 5 6 7"`: 2,800 games a row). About 3-5 minutes a
#   pack and seed on two cores.
set -eu
bin=${1:-target/release/towerlab}
games=${GAMES:-400}
threads=${THREADS:-2}
seeds=${SEEDS:-1}
case $games in
    ''|*[!0-9]*|0) echo "error: GAMES must be a whole number of games, at least 1 (got '$games')" >&2; exit 2 ;;
esac
[ -n "$(printf '%s' "$seeds" | tr -d ' ')" ] || { echo "error: SEEDS must name at least one seed" >&2; exit 2; }
for seed in $seeds; do
    case $seed in
        *[!0-9]*) echo "error: SEEDS must be whole numbers separated by spaces (got '$seed')" >&2; exit 2 ;;
    esac
done
[ $# -ge 1 ] && shift
[ $# -gt 0 ] || set -- tests/packs/guard-income tests/packs/tower-bounty tests/packs/toll \
    tests/packs/bulwark tests/packs/second-floor docs/examples/*/
[ -x "$bin" ] || { echo "error: no binary at $bin (cargo build --release)" >&2; exit 2; }

# ARENA-JSON... BOT -> "share [lo, hi]" of the bot's results over every
# arena given (one JSON line each): wins pooled, a 95% Wilson interval.
pooled() {
    printf '%s\n' "$1" | awk -v bot="$2" '
        {
            games = $0; sub(/.*"games":/, "", games); sub(/,.*/, "", games)
            row = $0; sub(".*\"bot\":\"" bot "\"", "", row)
            share = substr(row, index(row, "\"win_share\":") + 12); sub(/,.*/, "", share)
            wins += share * games; n += games
        }
        END {
            z = 1.959964; p = wins / n
            mid = (p + z * z / (2 * n)) / (1 + z * z / n)
            half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
            lo = mid - half; hi = mid + half
            if (lo < 0) lo = 0
            if (hi > 1) hi = 1
            printf "%.3f [%.3f, %.3f]\n", p, lo, hi
        }'
}

# BOT-A BOT-B RULES... -> one arena JSON line per seed
arenas() {
    a=$1; b=$2; shift 2
    for seed in $seeds; do
        "$bin" arena "$a" "$b" "$@" --games "$games" --seed "$seed" --threads "$threads" --format json
    done
}

printf '%-34s %-26s %-26s\n' pack 'greedy vs random' 'mcts vs greedy'
for pack in "$@"; do
    pack=${pack%/}
    if [ -f "$pack/variant.toml" ]; then
        rules="--variant $pack/variant.toml"
    else
        rules="--packs tower,$pack"
    fi
    # shellcheck disable=SC2086 # $rules is two words by design
    low=$(arenas greedy random $rules)
    # shellcheck disable=SC2086
    high=$(arenas mcts greedy $rules)
    printf '%-34s %-26s %-26s\n' "$pack" "$(pooled "$low" greedy)" "$(pooled "$high" mcts)"
done
