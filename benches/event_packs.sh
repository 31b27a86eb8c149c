#!/bin/sh
# Games per second of packs that act, each over The Tower, against the
# native rules they are measured by: `towerlab simulate --packs P --bots B
# --games N --threads 1 --seed 9`, random and greedy bots, in rounds (the
# packs one after the other in each round, so that a change of the
# machine's load shows as a spread between rounds rather than as a wrong
# ratio). Take each ratio's median over the rounds.
#
# Usage: benches/event_packs.sh [BINARY] [ROUNDS]
#   (defaults: target/release/towerlab, 3); run from the repository.
set -eu
bin=${1:-target/release/towerlab}
rounds=${2:-3}
[ -x "$bin" ] || { echo "error: no binary at $bin (cargo build --release)" >&2; exit 2; }

rate() { # packs bots games -> games per second
    "$bin" simulate --packs "$1" --bots "$2" --games "$3" --threads 1 --seed 9 \
        | tail -n 1 | sed -E 's/^([0-9,]+) games.*/\1/' | tr -d ,
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

round=1
while [ "$round" -le "$rounds" ]; do
    for bots in random greedy; do
        if [ "$bots" = random ]; then games=1000; else games=150; fi
        base=$(rate native:tower "$bots" $((games * 3)))
        black=$(rate native:black-tower "$bots" $((games * 3)))
        for pack in bell warden tithe quarry shadow; do
            got=$(rate "tower,docs/examples/$pack" "$bots" "$games")
            echo "round $round $bots $pack: $got games/s, $(ratio "$got" "$base")x native:tower"
        done
        got=$(rate tower,black-tower,benches/packs/raw-scores "$bots" "$games")
        echo "round $round $bots raw-scores: $got games/s, $(ratio "$got" "$black")x native:black-tower"
    done
    round=$((round + 1))
done
