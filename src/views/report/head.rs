//! The head every report page has: its title, the viewport, and the style
//! sheet inline (a page needs no network).

use maud::{Markup, PreEscaped, html};

const STYLE: &str = include_str!("report.css");

/// A page's `<head>`, titled `title`.
pub(super) fn head(title: &str) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            title { (title) }
            style { "\n" (PreEscaped(STYLE)) }
        }
    }
}
