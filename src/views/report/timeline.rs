//! Many pictures of one game (one per turn, drawn in one frame) merged into
//! one SVG whose elements say in which turns they are shown.
//!
//! A tile drawn at turn 5 stays the same element until the end, so a game of
//! 90 turns needs its tiles once, not 90 times. Each picture is cut into its
//! top-level elements and, inside each top-level `<g>` (tiles, meeples,
//! towers, panel…), that group's children; equal elements of different
//! pictures are one element of the merged SVG, which carries
//! `data-t="A-B C-D"`: the pictures (inclusive ranges of indices) that hold
//! it. Elements in every picture carry no `data-t`. A viewer shows picture
//! `i` by hiding every element whose ranges miss `i`.
//!
//! The cutting knows just enough XML for the SVG that `render` writes:
//! tags, self-closing tags, and text inside elements (escaped, so it holds no
//! `<`).

use std::collections::HashMap;

use anyhow::{Result, bail};

/// The merged elements of a group (or of the document, for the top level),
/// in drawing order.
#[derive(Default)]
struct Layer {
    order: Vec<Key>,
    /// The pictures each element is in.
    shown: HashMap<Key, Vec<usize>>,
}

/// An element's text and its occurrence among equal elements of one picture.
type Key = (String, usize);

impl Layer {
    /// Add one picture's elements, in order: new ones go right after the
    /// element that precedes them in this picture, so the merged drawing
    /// order is every picture's drawing order.
    fn add(&mut self, picture: usize, elements: &[String]) {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        let mut previous: Option<Key> = None;
        for text in elements {
            let n = seen.entry(text).or_insert(0);
            let key = (text.clone(), *n);
            *n += 1;
            match self.shown.get_mut(&key) {
                Some(pictures) => pictures.push(picture),
                None => {
                    let at = previous
                        .as_ref()
                        .and_then(|p| self.order.iter().position(|k| k == p))
                        .map_or(0, |i| i + 1);
                    self.order.insert(at, key.clone());
                    self.shown.insert(key.clone(), vec![picture]);
                }
            }
            previous = Some(key);
        }
    }
}

/// Pictures merged so far.
#[derive(Default)]
pub struct Timeline {
    pictures: usize,
    /// The last picture's `<svg …>` tag, and the largest width and height.
    root: String,
    width: f64,
    height: f64,
    top: Layer,
    /// The children of each top-level group, by the group's key in `top`.
    groups: HashMap<Key, Layer>,
}

impl Timeline {
    /// Add the next picture (an SVG document as `render` writes it).
    pub fn add(&mut self, svg: &str) -> Result<()> {
        let doc = cut(svg)?;
        let number = |name: &str| attribute(doc.root, name).and_then(|v| v.parse::<f64>().ok());
        self.width = self.width.max(number("width").unwrap_or(0.0));
        self.height = self.height.max(number("height").unwrap_or(0.0));
        self.root = doc.root.to_string();
        let picture = self.pictures;
        let tops: Vec<String> = doc.top.iter().map(|t| t.tag.to_string()).collect();
        self.top.add(picture, &tops);
        // Keys of the top-level elements as `Layer::add` numbered them.
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for t in &doc.top {
            let n = seen.entry(t.tag).or_insert(0);
            let key = (t.tag.to_string(), *n);
            *n += 1;
            if let Some(children) = &t.children {
                let children: Vec<String> = children.iter().map(|c| c.to_string()).collect();
                self.groups.entry(key).or_default().add(picture, &children);
            }
        }
        self.pictures += 1;
        Ok(())
    }

    /// The merged SVG, as large as the largest picture.
    pub fn svg(&self) -> String {
        let mut out = String::new();
        let (w, h) = (trim(self.width), trim(self.height));
        let root = set_attribute(&self.root, "width", &w);
        let root = set_attribute(&root, "height", &h);
        let root = set_attribute(&root, "viewBox", &format!("0 0 {w} {h}"));
        out.push_str(&root);
        out.push('\n');
        for key in &self.top.order {
            let shown = &self.top.shown[key];
            match self.groups.get(key) {
                None => out.push_str(&self.marked(&key.0, shown)),
                Some(group) => {
                    // `key.0` is the group's start tag: its children follow.
                    out.push_str(&self.marked(&key.0, shown));
                    out.push('\n');
                    for child in &group.order {
                        out.push_str(&self.marked(&child.0, &group.shown[child]));
                        out.push('\n');
                    }
                    out.push_str("</g>");
                }
            }
            out.push('\n');
        }
        out.push_str("</svg>\n");
        out
    }

    /// `element` with `data-t` naming the pictures it is in, unless it is
    /// in all of them.
    fn marked(&self, element: &str, pictures: &[usize]) -> String {
        if pictures.len() == self.pictures {
            return element.to_string();
        }
        let name_end = element
            .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .unwrap_or(element.len());
        format!(
            "{} data-t=\"{}\"{}",
            &element[..name_end],
            ranges(pictures),
            &element[name_end..]
        )
    }
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

fn trim(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A top-level element: for a group, its start tag and children; for any
/// other element, its whole text.
struct Top<'s> {
    tag: &'s str,
    children: Option<Vec<&'s str>>,
}

struct Cut<'s> {
    root: &'s str,
    top: Vec<Top<'s>>,
}

/// Cut an SVG document into its root tag, top-level elements and the
/// children of top-level groups.
fn cut(svg: &str) -> Result<Cut<'_>> {
    let mut root = None;
    let mut top: Vec<Top> = Vec::new();
    // Open elements; where the current top-level element and child began.
    let mut depth = 0usize;
    let mut top_start = 0;
    let mut child_start = 0;
    let mut group = false;
    let mut i = 0;
    while let Some(lt) = svg[i..].find('<').map(|p| p + i) {
        // Text is content only inside a top-level element that is not a
        // group, or deeper.
        let content = depth > 2 || (depth == 2 && !group);
        if !content && !svg[i..lt].trim().is_empty() {
            bail!("text outside elements: `{}`", svg[i..lt].trim());
        }
        let Some(gt) = svg[lt..].find('>').map(|p| p + lt + 1) else {
            bail!("a tag without `>` at byte {lt}");
        };
        let tag = &svg[lt..gt];
        i = gt;
        if tag.starts_with("<?") || tag.starts_with("<!") {
            continue;
        }
        if tag.starts_with("</") {
            if depth == 0 {
                bail!("`{tag}` closes nothing");
            }
            depth -= 1;
            match depth {
                2 if group => {
                    if let Some(Top {
                        children: Some(c), ..
                    }) = top.last_mut()
                    {
                        c.push(&svg[child_start..gt]);
                    }
                }
                1 if !group => top.push(Top {
                    tag: &svg[top_start..gt],
                    children: None,
                }),
                _ => {}
            }
            continue;
        }
        let closed = tag.ends_with("/>");
        match depth {
            0 => root = Some(tag),
            1 => {
                top_start = lt;
                group = !closed && (tag.starts_with("<g ") || tag == "<g>");
                if closed {
                    top.push(Top {
                        tag,
                        children: None,
                    });
                } else if group {
                    top.push(Top {
                        tag,
                        children: Some(Vec::new()),
                    });
                }
            }
            2 if group => {
                child_start = lt;
                if closed
                    && let Some(Top {
                        children: Some(c), ..
                    }) = top.last_mut()
                {
                    c.push(tag);
                }
            }
            _ => {}
        }
        if !closed {
            depth += 1;
        }
    }
    if depth != 0 {
        bail!("{depth} element(s) left open");
    }
    let Some(root) = root else {
        bail!("no root element");
    };
    Ok(Cut { root, top })
}

/// The value of attribute `name` in a start tag.
fn attribute<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let needle = format!(" {name}=\"");
    let start = tag.find(&needle)? + needle.len();
    let end = tag[start..].find('"')? + start;
    Some(&tag[start..end])
}

/// A start tag with attribute `name` set to `value` (added when missing).
fn set_attribute(tag: &str, name: &str, value: &str) -> String {
    let needle = format!(" {name}=\"");
    match tag.find(&needle) {
        Some(p) => {
            let start = p + needle.len();
            let end = tag[start..].find('"').map_or(tag.len(), |e| e + start);
            format!("{}{value}{}", &tag[..start], &tag[end..])
        }
        None => {
            let end = tag.trim_end_matches('>').trim_end_matches('/').len();
            format!("{} {name}=\"{value}\"{}", &tag[..end], &tag[end..])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_inclusive_runs() {
        assert_eq!(ranges(&[0, 1, 2, 5, 7, 8]), "0-2 5 7-8");
        assert_eq!(ranges(&[3]), "3");
        assert_eq!(ranges(&[]), "");
    }

    #[test]
    fn elements_are_kept_once_and_marked_with_their_pictures() {
        let mut t = Timeline::default();
        let a = "<svg width=\"10\" height=\"5\"><rect class=\"bg\"/><g class=\"tiles\">\n<g class=\"tile\" id=\"a\"><title>a</title></g>\n</g><text x=\"1\">turn 0</text></svg>";
        let b = "<svg width=\"10\" height=\"7\"><rect class=\"bg\"/><g class=\"tiles\">\n<g class=\"tile\" id=\"a\"><title>a</title></g>\n<g class=\"tile\" id=\"b\"><title>b</title></g>\n</g><text x=\"1\">turn 1</text></svg>";
        let c = "<svg width=\"10\" height=\"7\"><rect class=\"bg\"/><g class=\"tiles\">\n<g class=\"tile\" id=\"b\"><title>b</title></g>\n</g><text x=\"1\">turn 0</text></svg>";
        for s in [a, b, c] {
            t.add(s).unwrap();
        }
        let svg = t.svg();
        assert!(svg.starts_with("<svg width=\"10\" height=\"7\" viewBox=\"0 0 10 7\">"));
        assert_eq!(svg.matches("id=\"a\"").count(), 1);
        assert!(svg.contains("<g data-t=\"0-1\" class=\"tile\" id=\"a\">"));
        assert!(svg.contains("<g data-t=\"1-2\" class=\"tile\" id=\"b\">"));
        assert!(svg.contains("<text data-t=\"0 2\" x=\"1\">turn 0</text>"));
        assert!(svg.contains("<text data-t=\"1\" x=\"1\">turn 1</text>"));
        // In every picture: no mark.
        assert!(svg.contains("<rect class=\"bg\"/>"));
        assert!(svg.contains("<g class=\"tiles\">"));
        // Tile a is drawn before b, as in picture 1.
        assert!(svg.find("id=\"a\"").unwrap() < svg.find("id=\"b\"").unwrap());
    }

    #[test]
    fn a_group_new_in_a_later_picture_keeps_its_place() {
        let mut t = Timeline::default();
        t.add("<svg><g class=\"tiles\"><rect/></g><g class=\"meeples\"><path/></g></svg>")
            .unwrap();
        t.add("<svg><g class=\"tiles\"><rect/></g><g class=\"ranges\"><circle/></g><g class=\"meeples\"><path/></g></svg>")
            .unwrap();
        let svg = t.svg();
        let (tiles, ranges, meeples) = (
            svg.find("tiles").unwrap(),
            svg.find("ranges").unwrap(),
            svg.find("meeples").unwrap(),
        );
        assert!(tiles < ranges && ranges < meeples, "{svg}");
        assert!(svg.contains("<circle data-t=\"1\"/>"));
    }

    #[test]
    fn malformed_documents_are_refused() {
        assert!(cut("<svg><g>").is_err());
        assert!(cut("<svg></g></svg></svg>").is_err());
        assert!(cut("<svg>stray<rect/></svg>").is_err());
    }
}
