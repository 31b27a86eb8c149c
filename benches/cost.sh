#!/bin/sh
# `towerlab check --cost` against callgrind: the instructions a game its
# figures give the Bell and the Warden (docs/examples) with random bots,
# held within 10% of callgrind's count of the same games (the ignored test
# `cost::the_figures_are_within_a_tenth_of_callgrinds`, on a release build:
# its constants, in src/play/cost.rs, are a release build's). Takes a few
# minutes; run from the repository.
set -eu
command -v valgrind >/dev/null || { echo "error: valgrind is not installed" >&2; exit 2; }
exec cargo test --release --locked --test it cost::the_figures_are_within_a_tenth_of_callgrinds \
    -- --ignored --nocapture
