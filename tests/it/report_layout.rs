//! The report's layout at 2, 4 and 8 variants, measured in Chromium from
//! the page's own layout: no two text boxes of a chart overlap (slanted
//! names measured as the rotated boxes they are), no chart text leaves its
//! picture, and the comparison table either fits its column or keeps its
//! metric column pinned while it scrolls. Screenshots go to
//! `$TOWERLAB_LAYOUT_SCREENSHOTS` when it names a folder.
//!
//! Ignored without `chromium`, as `browser` says.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::browser::Page;
use crate::common::{stderr, towerlab};

/// Eight variants, the first `n` compared.
const VARIANTS: [&str; 8] = [
    "tower",
    "black-tower",
    "tower-no-gaps",
    "tower-eye-for-an-eye",
    "tower-no-surprises",
    "tower-diagonal-steps",
    "black-tower-no-gaps",
    "native:tower",
];

/// The report of the first `n` variants (a few random games, with the
/// per-floor-kind section), written under `dir`.
fn report(n: usize, dir: &std::path::Path) -> PathBuf {
    let path = dir.join(format!("report-{n}.html"));
    let out = towerlab()
        .arg("compare")
        .args(&VARIANTS[..n])
        .args(["--games", "8", "--viewer-games", "1", "--by-kind", "--html"])
        .arg(&path)
        .output()
        .expect("towerlab runs");
    assert!(out.status.success(), "{}", stderr(&out));
    path
}

/// In the page: every pair of overlapping text boxes in a chart, and
/// every chart text outside its picture. A text's box is its `getBBox`
/// mapped to the screen by its transform (so a slanted name is the
/// rotated rectangle it covers); two boxes overlap when no edge of either
/// separates them (the separating-axis test), by more than half a pixel.
const OVERLAPS: &str = r#"(() => {
  const corners = t => {
    const b = t.getBBox(), m = t.getScreenCTM();
    return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
      .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
  };
  const apart = (p, q) => {
    for (const poly of [p, q]) {
      for (let i = 0; i < 4; i++) {
        const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % 4];
        const len = Math.hypot(x2 - x1, y2 - y1) || 1;
        const nx = (y1 - y2) / len, ny = (x2 - x1) / len;
        const proj = s => s.map(([x, y]) => x * nx + y * ny);
        const a = proj(p), b = proj(q);
        if (Math.max(...a) <= Math.min(...b) + 0.5 || Math.max(...b) <= Math.min(...a) + 0.5) return true;
      }
    }
    return false;
  };
  const found = [];
  let texts = 0;
  document.querySelectorAll('svg.chart').forEach((svg, c) => {
    const title = svg.getAttribute('aria-label');
    const frame = svg.getBoundingClientRect();
    const boxes = [...svg.querySelectorAll('text')]
      .filter(t => t.getClientRects().length > 0 && t.textContent.trim() !== '')
      .map(t => ({ text: t.textContent, poly: corners(t) }));
    texts += boxes.length;
    boxes.forEach((a, i) => {
      for (const [x, y] of a.poly) {
        if (x < frame.left - 0.5 || x > frame.right + 0.5 || y < frame.top - 0.5 || y > frame.bottom + 0.5) {
          found.push(`${title}: "${a.text}" leaves the picture`);
          break;
        }
      }
      for (const b of boxes.slice(i + 1)) {
        if (!apart(a.poly, b.poly)) found.push(`${title}: "${a.text}" overlaps "${b.text}"`);
      }
    });
  });
  return { found, texts, charts: document.querySelectorAll('svg.chart').length };
})()"#;

/// In the page: for each comparison table, whether it fits its box, and
/// where its first column is after scrolling the box to its right end.
const TABLES: &str = r#"[...document.querySelectorAll('.scroll')].map(box => {
  const fits = box.scrollWidth <= box.clientWidth + 1;
  box.scrollLeft = box.scrollWidth;
  const pin = box.querySelector('tbody th');
  const gap = pin.getBoundingClientRect().left - box.getBoundingClientRect().left;
  const sticky = getComputedStyle(pin).position === 'sticky';
  box.scrollLeft = 0;
  return { fits, pinned: sticky && Math.abs(gap) < 1.5, gap };
})"#;

/// The value of `expression` (an object or array), through JSON.
fn json_of(page: &Page, expression: &str) -> Value {
    let text = page.eval(&format!("JSON.stringify({expression})"));
    serde_json::from_str(text.as_str().expect("a JSON string")).expect("JSON")
}

#[test]
#[cfg_attr(
    no_browser,
    ignore = "`chromium` is not on PATH (apt-get install chromium; TOWERLAB_REQUIRE_BROWSER=1 requires it)"
)]
fn the_report_lays_out_2_4_and_8_variants_without_overlapping_text() {
    let dir = crate::common::temp_dir("report-layout");
    let page = Page::open(1280, 900);
    for n in [2, 4, 8] {
        let path = report(n, dir.path());
        page.load(&format!(
            "file://{}",
            path.canonicalize().unwrap().display()
        ));
        let measured = json_of(&page, OVERLAPS);
        let found = measured["found"].as_array().unwrap();
        assert!(found.is_empty(), "{n} variants: {found:#?}");
        // The charts were there to measure: scores, wins, events, heights.
        assert!(measured["charts"].as_u64().unwrap() >= 4, "{measured}");
        assert!(measured["texts"].as_u64().unwrap() > 40, "{measured}");
        let tables = json_of(&page, TABLES);
        let tables = tables.as_array().unwrap();
        assert_eq!(tables.len(), 2, "the table and the per-floor-kind table");
        for t in tables {
            assert!(
                t["fits"] == json!(true) || t["pinned"] == json!(true),
                "{n} variants: a table that neither fits nor keeps its first column: {t}"
            );
        }
        if n == 8 {
            assert!(
                tables.iter().any(|t| t["fits"] == json!(false)),
                "eight variants' table is wider than the page: the pin is what is tested"
            );
        }
        // The verdict leads the page.
        let first: Value = page.eval("document.querySelector('main section').id");
        assert_eq!(first, json!("verdict"));
        let height = page
            .eval("document.documentElement.scrollHeight")
            .as_f64()
            .unwrap();
        let png = page.screenshot(1280.0, height.min(6000.0));
        if let Some(keep) = std::env::var_os("TOWERLAB_LAYOUT_SCREENSHOTS") {
            let out = PathBuf::from(keep).join(format!("report-{n}-variants.png"));
            std::fs::write(&out, &png).unwrap();
            eprintln!("screenshot written to {}", out.display());
        }
    }
}
