#!/bin/sh
# Do the bots play what a rule pays? For each rule of a kind no bot was
# written for (tests/packs: an income, end scores, a payment at a random
# draw, a strength change, a floor worth a floor later) and every pack of
# docs/examples, two arenas on the same deals, seats rotated: `greedy`
# against `random`, and `mcts` against `greedy`. Prints one row a pack:
# each arena's win share of the first bot with its 95% interval.
#
# Usage: [GAMES=N] [THREADS=T] benches/rule_bots.sh [BINARY] [PACK ...]
#   (defaults: 400 games, 2 threads, target/release/towerlab, every pack
#   named above); run from the repository. A pack is a folder; one with a
#   variant.toml is played as that variant, any other over `tower`. About
#   3-5 minutes a pack on two cores.
set -eu
bin=${1:-target/release/towerlab}
games=${GAMES:-400}
threads=${THREADS:-2}
case $games in
    ''|*[!0-9]*|0) echo "error: GAMES must be a whole number of games, at least 1 (got '$games')" >&2; exit 2 ;;
esac
[ $# -ge 1 ] && shift
[ $# -gt 0 ] || set -- tests/packs/guard-income tests/packs/tower-bounty tests/packs/toll \
    tests/packs/bulwark tests/packs/second-floor docs/examples/*/
[ -x "$bin" ] || { echo "error: no binary at $bin (cargo build --release)" >&2; exit 2; }

share() { # ARENA-OUTPUT BOT -> "share [lo, hi]" of the bot's row
    printf '%s\n' "$1" | awk -v bot="$2" '$1 == bot { print $3, $4, $5; exit }'
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
    low=$("$bin" arena greedy random $rules --games "$games" --seed 1 --threads "$threads")
    # shellcheck disable=SC2086
    high=$("$bin" arena mcts greedy $rules --games "$games" --seed 1 --threads "$threads")
    printf '%-34s %-26s %-26s\n' "$pack" "$(share "$low" greedy)" "$(share "$high" mcts)"
done
