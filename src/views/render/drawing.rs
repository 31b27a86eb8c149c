//! A picture as structured data: its size and its top-level parts, each an
//! element or a group of elements, every element drawn with maud (which
//! escapes text and attribute values) and able to draw itself again marked
//! with `data-t`, the pictures of a merged timeline it is shown in. Equal
//! elements have equal keys: their markup without the mark.

use maud::{Markup, PreEscaped, html};

use super::tile::num;

/// Draws an element, with `data-t` when given.
type Draw = dyn Fn(Option<&str>) -> Markup;
/// Draws a group around its children's markup, with `data-t` when given.
type Wrap = dyn Fn(Option<&str>, Markup) -> Markup;

/// One element of a picture.
pub struct Piece {
    key: String,
    draw: Box<Draw>,
}

impl Piece {
    /// The element `draw` draws; it must put `data-t` on the element itself
    /// when given one.
    pub fn new(draw: impl Fn(Option<&str>) -> Markup + 'static) -> Piece {
        let key = draw(None).into_string();
        Piece {
            key,
            draw: Box::new(draw),
        }
    }

    /// The element's markup without a mark: equal for equal elements.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The element, marked as shown in the pictures `shown` names.
    pub fn markup(&self, shown: Option<&str>) -> Markup {
        match shown {
            None => PreEscaped(self.key.clone()),
            Some(_) => (self.draw)(shown),
        }
    }
}

/// A top-level group and its children, in drawing order.
pub struct Group {
    key: String,
    wrap: Box<Wrap>,
    pub children: Vec<Piece>,
}

impl Group {
    /// A group drawn by `wrap` around its children.
    pub fn new(wrap: impl Fn(Option<&str>, Markup) -> Markup + 'static) -> Group {
        let key = wrap(None, PreEscaped(String::new())).into_string();
        Group {
            key,
            wrap: Box::new(wrap),
            children: Vec::new(),
        }
    }

    /// The empty group's markup, without a mark.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The group around `children`, marked when `shown` is given.
    pub fn markup(&self, shown: Option<&str>, children: Markup) -> Markup {
        (self.wrap)(shown, children)
    }

    pub fn push(&mut self, piece: Piece) {
        self.children.push(piece);
    }
}

/// A top-level part of a picture.
pub enum Part {
    Piece(Piece),
    Group(Group),
}

/// A picture: its size and parts, in drawing order.
pub struct Drawing {
    pub width: f64,
    pub height: f64,
    pub parts: Vec<Part>,
}

impl Drawing {
    /// The picture as an SVG document.
    pub fn svg(&self) -> String {
        self.svg_with(html! {})
    }

    /// The picture as an SVG document whose first element is `<defs>`
    /// holding `defs` (the symbols its parts use).
    pub fn svg_with(&self, defs: Markup) -> String {
        let defs = defs.into_string();
        let body = html! {
            @if !defs.is_empty() { defs { (PreEscaped(defs)) } }
            @for part in &self.parts {
                @match part {
                    Part::Piece(p) => (p.markup(None)),
                    Part::Group(g) => (g.markup(None, html! {
                        @for c in &g.children { (c.markup(None)) }
                    })),
                }
            }
        };
        document(self.width, self.height, body).into_string() + "\n"
    }
}

/// The root element of a board picture of this size around `body`.
pub fn document(width: f64, height: f64, body: Markup) -> Markup {
    let (w, h) = (num(width), num(height));
    html! {
        svg xmlns="http://www.w3.org/2000/svg" width=(w) height=(h)
            viewBox=(format!("0 0 {w} {h}"))
            font-family="DejaVu Sans, Verdana, Arial, sans-serif" { (body) }
    }
}

/// A line of text at `x`, `y` (its baseline).
pub fn text(x: f64, y: f64, content: String) -> Piece {
    let (x, y) = (num(x), num(y));
    Piece::new(move |t| html! { text data-t=[t] x=(x) y=(y) { (content) } })
}
