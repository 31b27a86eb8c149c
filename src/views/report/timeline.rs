//! Many pictures of one game (one per turn, drawn in one frame) merged into
//! one SVG whose elements say in which turns they are shown.
//!
//! A tile drawn at turn 5 stays the same element until the end, so a game of
//! 90 turns needs its tiles once, not 90 times. Each picture comes as a
//! [`Drawing`]: its top-level parts and, inside each top-level group (tiles,
//! meeples, towers, panel…), that group's elements, each with a key (its
//! markup without a mark). Elements of different pictures with equal keys
//! are one element of the merged SVG, which carries `data-t="A-B C-D"`: the
//! pictures (inclusive ranges of indices) that hold it. Elements in every
//! picture carry no `data-t`. A viewer shows picture `i` by hiding every
//! element whose ranges miss `i`.

use std::collections::HashMap;

use maud::html;

use crate::views::render::drawing::{Drawing, Group, Part, Piece, document};

/// An element's key and its occurrence among equal elements of one picture.
type Key = (String, usize);

/// The merged elements of a group (or of the document, for the top level),
/// in drawing order, each with the pictures it is in.
struct Layer<T> {
    order: Vec<Key>,
    entries: HashMap<Key, (Vec<usize>, T)>,
}

impl<T> Default for Layer<T> {
    fn default() -> Self {
        Layer {
            order: Vec::new(),
            entries: HashMap::new(),
        }
    }
}

impl<T> Layer<T> {
    /// Add one picture's elements, in order: new ones go right after the
    /// element that precedes them in this picture, so the merged drawing
    /// order is every picture's drawing order. An element already merged
    /// is handed to `again` with this picture's copy.
    fn add(
        &mut self,
        picture: usize,
        elements: Vec<(String, T)>,
        mut again: impl FnMut(&mut T, T),
    ) {
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut previous: Option<Key> = None;
        for (text, item) in elements {
            let n = seen.entry(text.clone()).or_insert(0);
            let key = (text, *n);
            *n += 1;
            match self.entries.get_mut(&key) {
                Some((pictures, merged)) => {
                    pictures.push(picture);
                    again(merged, item);
                }
                None => {
                    let at = previous
                        .as_ref()
                        .and_then(|p| self.order.iter().position(|k| k == p))
                        .map_or(0, |i| i + 1);
                    self.order.insert(at, key.clone());
                    self.entries.insert(key.clone(), (vec![picture], item));
                }
            }
            previous = Some(key);
        }
    }

    /// The merged elements in drawing order, with their pictures.
    fn iter(&self) -> impl Iterator<Item = (&[usize], &T)> {
        self.order.iter().map(|k| {
            let (pictures, item) = &self.entries[k];
            (pictures.as_slice(), item)
        })
    }
}

/// A merged top-level part: an element, or a group with its merged children.
enum Top {
    Piece(Piece),
    Group(Group, Layer<Piece>),
}

/// Pictures merged so far.
#[derive(Default)]
pub struct Timeline {
    pictures: usize,
    /// The largest width and height.
    width: f64,
    height: f64,
    top: Layer<Top>,
}

impl Timeline {
    /// Add the next picture.
    pub fn add(&mut self, drawing: Drawing) {
        self.width = self.width.max(drawing.width);
        self.height = self.height.max(drawing.height);
        let picture = self.pictures;
        let parts: Vec<(String, Top)> = drawing
            .parts
            .into_iter()
            .map(|part| match part {
                Part::Piece(p) => (p.key().to_string(), Top::Piece(p)),
                Part::Group(mut g) => {
                    let mut children = Layer::default();
                    children.add(picture, keyed(std::mem::take(&mut g.children)), |_, _| {});
                    (g.key().to_string(), Top::Group(g, children))
                }
            })
            .collect();
        self.top.add(picture, parts, |merged, new| {
            if let (Top::Group(_, children), Top::Group(_, mut more)) = (merged, new) {
                // `more` holds this picture's children, not yet merged.
                let pieces = more.order.drain(..).map(|k| {
                    let (_, piece) = more.entries.remove(&k).expect("ordered");
                    (k.0, piece)
                });
                children.add(picture, pieces.collect(), |_, _| {});
            }
        });
        self.pictures += 1;
    }

    /// The merged SVG, as large as the largest picture.
    pub fn svg(&self) -> String {
        let body = html! {
            @for (shown, top) in self.top.iter() {
                @match top {
                    Top::Piece(p) => (p.markup(self.mark(shown).as_deref())),
                    Top::Group(g, children) => (g.markup(self.mark(shown).as_deref(), html! {
                        @for (shown, child) in children.iter() {
                            (child.markup(self.mark(shown).as_deref()))
                        }
                    })),
                }
            }
        };
        document(self.width, self.height, body).into_string() + "\n"
    }

    /// The `data-t` of an element in `pictures`: none when it is in all.
    fn mark(&self, pictures: &[usize]) -> Option<String> {
        (pictures.len() != self.pictures).then(|| ranges(pictures))
    }
}

/// Pieces with their keys.
fn keyed(pieces: Vec<Piece>) -> Vec<(String, Piece)> {
    pieces
        .into_iter()
        .map(|p| (p.key().to_string(), p))
        .collect()
}

/// Sorted picture indices as inclusive ranges: `0-3 7 9-10`.
pub fn ranges(pictures: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < pictures.len() {
        let start = pictures[i];
        let mut end = start;
        while i + 1 < pictures.len() && pictures[i + 1] == end + 1 {
            i += 1;
            end += 1;
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(class: &'static str) -> Part {
        Part::Piece(Piece::new(
            move |t| html! { rect data-t=[t] class=(class) {} },
        ))
    }

    fn label(text: &'static str) -> Piece {
        Piece::new(move |t| html! { text data-t=[t] x="1" { (text) } })
    }

    fn group(class: &'static str, children: Vec<Piece>) -> Part {
        let mut g = Group::new(move |t, c| html! { g data-t=[t] class=(class) { (c) } });
        g.children = children;
        Part::Group(g)
    }

    fn tile(id: &'static str) -> Piece {
        Piece::new(move |t| html! { g data-t=[t] class="tile" id=(id) { title { (id) } } })
    }

    fn drawing(height: f64, parts: Vec<Part>) -> Drawing {
        Drawing {
            width: 10.0,
            height,
            parts,
        }
    }

    #[test]
    fn ranges_are_inclusive_runs() {
        assert_eq!(ranges(&[0, 1, 2, 5, 7, 8]), "0-2 5 7-8");
        assert_eq!(ranges(&[3]), "3");
        assert_eq!(ranges(&[]), "");
    }

    #[test]
    fn elements_are_kept_once_and_marked_with_their_pictures() {
        let mut t = Timeline::default();
        t.add(drawing(
            5.0,
            vec![
                rect("bg"),
                group("tiles", vec![tile("a")]),
                group("panel", vec![label("turn 0")]),
            ],
        ));
        t.add(drawing(
            7.0,
            vec![
                rect("bg"),
                group("tiles", vec![tile("a"), tile("b")]),
                group("panel", vec![label("turn 1")]),
            ],
        ));
        t.add(drawing(
            7.0,
            vec![
                rect("bg"),
                group("tiles", vec![tile("b")]),
                group("panel", vec![label("turn 0")]),
            ],
        ));
        let svg = t.svg();
        assert!(
            svg.contains("width=\"10\" height=\"7\" viewBox=\"0 0 10 7\""),
            "{svg}"
        );
        assert_eq!(svg.matches("id=\"a\"").count(), 1);
        assert!(svg.contains("<g data-t=\"0-1\" class=\"tile\" id=\"a\">"));
        assert!(svg.contains("<g data-t=\"1-2\" class=\"tile\" id=\"b\">"));
        assert!(svg.contains("<text data-t=\"0 2\" x=\"1\">turn 0</text>"));
        assert!(svg.contains("<text data-t=\"1\" x=\"1\">turn 1</text>"));
        // In every picture: no mark.
        assert!(svg.contains("<rect class=\"bg\"></rect>"));
        assert!(svg.contains("<g class=\"tiles\">"));
        // Tile a is drawn before b, as in picture 1.
        assert!(svg.find("id=\"a\"").unwrap() < svg.find("id=\"b\"").unwrap());
        roxmltree::Document::parse(&svg).expect("the merged SVG is XML");
    }

    #[test]
    fn a_group_new_in_a_later_picture_keeps_its_place() {
        let mut t = Timeline::default();
        let circle = || Piece::new(|t| html! { circle data-t=[t] {} });
        t.add(drawing(
            1.0,
            vec![
                group("tiles", vec![tile("a")]),
                group("meeples", vec![label("m")]),
            ],
        ));
        t.add(drawing(
            1.0,
            vec![
                group("tiles", vec![tile("a")]),
                group("ranges", vec![circle()]),
                group("meeples", vec![label("m")]),
            ],
        ));
        let svg = t.svg();
        let (tiles, ranges, meeples) = (
            svg.find("tiles").unwrap(),
            svg.find("ranges").unwrap(),
            svg.find("meeples").unwrap(),
        );
        assert!(tiles < ranges && ranges < meeples, "{svg}");
        assert!(
            svg.contains("<g data-t=\"1\" class=\"ranges\"><circle data-t=\"1\"></circle></g>"),
            "{svg}"
        );
    }
}
