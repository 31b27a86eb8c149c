//! The report's "Did the rules fire?" section (`--fires`): per variant,
//! each pack hook's questions, the answers it changed, the games it changed
//! one in, and a sentence for each hook that never changed an answer.

use maud::{Markup, html};

use crate::analysis::compare::{Comparison, VariantFires};

/// Did the rules fire? (`--fires`): per variant, each pack hook's
/// questions, the answers it changed and the games it changed one in; a
/// sentence for each that never changed an answer.
pub(super) fn section(r: &Comparison, fires: &[VariantFires]) -> Markup {
    html! {
        section id="fires" {
            h2 { "Did the rules fire?" }
            div class="scroll" {
                table class="compare" {
                    thead {
                        tr {
                            th { "variant" } th { "pack" } th { "hook" } th { "in play: asked" }
                            th { "changed" } th { "games changed" }
                            th { "in search: asked" } th { "changed" }
                        }
                    }
                    tbody {
                        @for (v, f) in fires.iter().enumerate() {
                            @for hook in &f.hooks {
                                tr class=[hook.never_changed_in_play().then_some("never")] {
                                    td { (r.variants.get(v).unwrap_or(&f.variant)) }
                                    td { (super::names::pack_name(&hook.pack)) }
                                    td { code { (hook.hook.name()) } }
                                    td { (hook.in_play.asked) }
                                    td { (hook.in_play.changed) }
                                    td { (hook.in_play.games_changed) " of " (f.games) }
                                    td { (hook.in_search.asked) }
                                    td { (hook.in_search.changed) }
                                }
                            }
                        }
                    }
                }
            }
            @for (v, f) in fires.iter().enumerate() {
                @for sentence in f.never_changed() {
                    p class="sentence" { (r.variants.get(v).unwrap_or(&f.variant)) ": " (sentence) }
                }
            }
            p class="note" {
                "Per pack and hook: the questions the games played asked it (a decision's options, a choice carried out, scoring), those whose answer it changed against the packs before it (or the hook's default), and the games in which it changed at least one; apart, the questions asked while a bot decided (its search, of positions no game may reach). A rule that never changed an answer the games asked did nothing in these games."
            }
        }
    }
}
