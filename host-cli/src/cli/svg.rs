//! Hand-written SVG (no crates): layout grids, TiledCopy thread/value pictures and
//! throughput plots. Every picture is self-contained, white background, readable when
//! rendered at 100% (cells at least 34 px, text scaled to fit its cell).

use std::fmt::Write;

/// CuTe's `TikzColor_TV` palette (print_latex.hpp): one colour per `tid % 8`.
pub const TV_PALETTE: [&str; 8] = [
    "#afafff", "#afffaf", "#ffffaf", "#ffafaf", "#d2d2ff", "#d2ffd2", "#ffffd2", "#ffd2d2",
];

/// CuTe's `TikzColor_BWx8` greys (`black!00, !40, !20, !60, !10, !50, !30, !70`) by `idx % 8`.
pub const BW_PALETTE: [&str; 8] = [
    "#ffffff", "#999999", "#cccccc", "#666666", "#e6e6e6", "#808080", "#b3b3b3", "#4d4d4d",
];

/// Escapes text for SVG content and attributes.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Whether black text stays readable on a `#rrggbb` fill (else use white).
fn dark(fill: &str) -> bool {
    let v = u32::from_str_radix(fill.trim_start_matches('#'), 16).unwrap_or(0xffffff);
    let (r, g, b) = ((v >> 16) & 255, (v >> 8) & 255, v & 255);
    (299 * r + 587 * g + 114 * b) / 1000 < 110
}

/// A light, perceptually ordered ramp (pale yellow -> teal -> violet) for `t` in [0, 1]:
/// neighbouring indices get neighbouring colours, so strides show up as gradients.
pub fn ramp(t: f64) -> String {
    const STOPS: [(f64, [f64; 3]); 4] = [
        (0.0, [255.0, 247.0, 188.0]),
        (0.35, [161.0, 218.0, 180.0]),
        (0.7, [65.0, 182.0, 196.0]),
        (1.0, [150.0, 130.0, 210.0]),
    ];
    let t = t.clamp(0.0, 1.0);
    let mut k = 0;
    while k + 2 < STOPS.len() && t > STOPS[k + 1].0 {
        k += 1;
    }
    let (t0, c0) = STOPS[k];
    let (t1, c1) = STOPS[k + 1];
    let f = if t1 > t0 { (t - t0) / (t1 - t0) } else { 0.0 };
    let c: Vec<u8> = (0..3)
        .map(|i| (c0[i] + f * (c1[i] - c0[i])).round() as u8)
        .collect();
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// One cell of a grid picture: fill colour and one or two lines of text.
pub struct Cell {
    pub fill: String,
    pub lines: Vec<String>,
}

/// A `rows x cols` grid with row/column labels and a title, like CuTe's `print_latex`.
pub fn grid(
    title: &str,
    subtitle: &str,
    rows: usize,
    cols: usize,
    cell: impl Fn(usize, usize) -> Option<Cell>,
) -> String {
    // Cell size: wide enough for the longest text at a readable font size.
    let mut longest = 1usize;
    let mut max_lines = 1usize;
    let mut cells = Vec::with_capacity(rows * cols);
    for m in 0..rows {
        for n in 0..cols {
            let c = cell(m, n);
            if let Some(c) = &c {
                longest = longest.max(c.lines.iter().map(|l| l.len()).max().unwrap_or(1));
                max_lines = max_lines.max(c.lines.len());
            }
            cells.push(c);
        }
    }
    let font = 13.0f64;
    let cw = (longest as f64 * font * 0.62 + 16.0).max(34.0).ceil();
    let ch = (max_lines as f64 * font * 1.15 + 12.0).max(34.0).ceil();
    let label_w = (rows.saturating_sub(1).to_string().len() as f64 * 8.0 + 16.0).max(28.0);
    let (x0, y0) = (label_w + 10.0, 70.0);
    let w = x0 + cols as f64 * cw + 20.0;
    let h = y0 + rows as f64 * ch + 20.0;
    let w = w
        .max(title.len() as f64 * 8.6 + 30.0)
        .max(subtitle.len() as f64 * 7.0 + 30.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="white"/>"##
    );
    let _ = writeln!(
        s,
        r##"<text x="10" y="22" font-size="15" font-weight="bold">{}</text>"##,
        esc(title)
    );
    if !subtitle.is_empty() {
        let _ = writeln!(
            s,
            r##"<text x="10" y="40" font-size="12" fill="#444">{}</text>"##,
            esc(subtitle)
        );
    }
    for n in 0..cols {
        let x = x0 + (n as f64 + 0.5) * cw;
        let _ = writeln!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#555">{n}</text>"##,
            y0 - 8.0
        );
    }
    for m in 0..rows {
        let y = y0 + (m as f64 + 0.5) * ch + 4.0;
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{y:.1}" font-size="12" text-anchor="end" fill="#555">{m}</text>"##,
            x0 - 8.0
        );
    }
    for m in 0..rows {
        for n in 0..cols {
            let Some(c) = &cells[m * cols + n] else {
                continue;
            };
            let (x, y) = (x0 + n as f64 * cw, y0 + m as f64 * ch);
            let _ = writeln!(
                s,
                r##"<rect x="{x:.1}" y="{y:.1}" width="{cw:.1}" height="{ch:.1}" fill="{}"/>"##,
                c.fill
            );
            let color = if dark(&c.fill) { "white" } else { "black" };
            let k = c.lines.len() as f64;
            for (i, line) in c.lines.iter().enumerate() {
                let ty = y + ch / 2.0 + (i as f64 - (k - 1.0) / 2.0) * font * 1.15 + font * 0.35;
                let _ = writeln!(
                    s,
                    r##"<text x="{:.1}" y="{ty:.1}" font-size="{font}" text-anchor="middle" fill="{color}">{}</text>"##,
                    x + cw / 2.0,
                    esc(line)
                );
            }
        }
    }
    // Grid lines on top of the fills.
    let (gw, gh) = (cols as f64 * cw, rows as f64 * ch);
    let mut path = String::new();
    for m in 0..=rows {
        let y = y0 + m as f64 * ch;
        let _ = write!(path, "M{x0:.1} {y:.1}h{gw:.1}");
    }
    for n in 0..=cols {
        let x = x0 + n as f64 * cw;
        let _ = write!(path, "M{x:.1} {y0:.1}v{gh:.1}");
    }
    let _ = writeln!(
        s,
        r##"<path d="{path}" stroke="black" stroke-width="1" fill="none"/>"##
    );
    s.push_str("</svg>\n");
    s
}

/// One line of a plot.
pub struct Series {
    pub name: String,
    pub color: &'static str,
    pub dashed: bool,
    /// (x, y) points; x > 0 (log scale).
    pub points: Vec<(f64, f64)>,
}

/// Distinct line colours for plots (Tableau 10).
pub const LINE_COLORS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
];

/// "Nice" tick step for a span, about `n` ticks.
fn nice_step(span: f64, n: f64) -> f64 {
    let raw = (span / n).max(f64::MIN_POSITIVE);
    let p = 10f64.powf(raw.log10().floor());
    let f = raw / p;
    p * if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    }
}

/// A line plot with log-scale x (ticks labelled by `xticks`: (x, text)) and linear y from 0.
pub fn plot(
    title: &str,
    ylabel: &str,
    xlabel: &str,
    xticks: &[(f64, String)],
    series: &[Series],
) -> String {
    // room below the plot for the rotated tick labels *and* the axis title under them
    let (w, h) = (900.0f64, 580.0f64);
    let (l, r, t, b) = (80.0, 270.0, 50.0, 130.0);
    let (pw, ph) = (w - l - r, h - t - b);
    let xs: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .chain(xticks.iter().map(|t| t.0))
        .collect();
    let ys: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .collect();
    let (mut xmin, mut xmax) = xs
        .iter()
        .fold((f64::INFINITY, 0f64), |(a, b), &x| (a.min(x), b.max(x)));
    if !xmin.is_finite() || xmin <= 0.0 {
        (xmin, xmax) = (1.0, 10.0);
    }
    let (lx0, mut lx1) = (xmin.log10(), xmax.log10());
    if lx1 - lx0 < 1e-9 {
        lx1 = lx0 + 1.0;
    }
    let pad = (lx1 - lx0) * 0.05;
    let (lx0, lx1) = (lx0 - pad, lx1 + pad);
    let ymax_data = ys.iter().copied().fold(0f64, f64::max);
    let step = nice_step(
        if ymax_data > 0.0 {
            ymax_data * 1.08
        } else {
            1.0
        },
        6.0,
    );
    let ymax = ((ymax_data * 1.08) / step).ceil().max(1.0) * step;
    let px = |x: f64| l + (x.log10() - lx0) / (lx1 - lx0) * pw;
    let py = |y: f64| t + ph - y / ymax * ph;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="white"/>"##
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="28" font-size="17" font-weight="bold" text-anchor="middle">{}</text>"##,
        l + pw / 2.0,
        esc(title)
    );
    // y grid and ticks
    let mut y = 0.0;
    while y <= ymax + step * 0.01 {
        let yy = py(y);
        let _ = writeln!(
            s,
            r##"<line x1="{l}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#e3e3e3"/>"##,
            l + pw
        );
        let label = if step >= 1.0 {
            format!("{y:.0}")
        } else {
            format!("{y:.*}", (-step.log10().floor()) as usize)
        };
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="end">{label}</text>"##,
            l - 6.0,
            yy + 4.0
        );
        y += step;
    }
    // x ticks (labelled by the caller, e.g. "256 MiB")
    for (x, text) in xticks {
        let xx = px(*x);
        let _ = writeln!(
            s,
            r##"<line x1="{xx:.1}" y1="{t}" x2="{xx:.1}" y2="{:.1}" stroke="#eeeeee"/>"##,
            t + ph
        );
        let _ = writeln!(
            s,
            r##"<line x1="{xx:.1}" y1="{:.1}" x2="{xx:.1}" y2="{:.1}" stroke="black"/>"##,
            t + ph,
            t + ph + 5.0
        );
        let _ = writeln!(
            s,
            r##"<text x="{xx:.1}" y="{:.1}" font-size="11" text-anchor="end" transform="rotate(-30 {xx:.1} {:.1})">{}</text>"##,
            t + ph + 18.0,
            t + ph + 18.0,
            esc(text)
        );
    }
    let _ = writeln!(
        s,
        r##"<rect x="{l}" y="{t}" width="{pw}" height="{ph}" fill="none" stroke="black"/>"##
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle">{}</text>"##,
        l + pw / 2.0,
        h - 10.0,
        esc(xlabel)
    );
    let _ = writeln!(
        s,
        r##"<text x="18" y="{:.1}" font-size="13" text-anchor="middle" transform="rotate(-90 18 {:.1})">{}</text>"##,
        t + ph / 2.0,
        t + ph / 2.0,
        esc(ylabel)
    );
    // series
    for se in series {
        let mut pts = se.points.clone();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let d: Vec<String> = pts
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
            .collect();
        let dash = if se.dashed {
            r##" stroke-dasharray="7 4""##
        } else {
            ""
        };
        if d.len() > 1 {
            let _ = writeln!(
                s,
                r##"<polyline points="{}" fill="none" stroke="{}" stroke-width="2.2"{dash}/>"##,
                d.join(" "),
                se.color
            );
        }
        for &(x, y) in &pts {
            if se.dashed {
                let _ = writeln!(
                    s,
                    r##"<rect x="{:.1}" y="{:.1}" width="7" height="7" fill="white" stroke="{}" stroke-width="1.8"/>"##,
                    px(x) - 3.5,
                    py(y) - 3.5,
                    se.color
                );
            } else {
                let _ = writeln!(
                    s,
                    r##"<circle cx="{:.1}" cy="{:.1}" r="3.8" fill="{}"/>"##,
                    px(x),
                    py(y),
                    se.color
                );
            }
        }
    }
    // legend
    let lx = l + pw + 16.0;
    for (i, se) in series.iter().enumerate() {
        let ly = t + 12.0 + i as f64 * 22.0;
        let dash = if se.dashed {
            r##" stroke-dasharray="7 4""##
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r##"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{}" stroke-width="2.2"{dash}/>"##,
            lx + 26.0,
            se.color
        );
        let name: String = if se.name.len() > 34 {
            format!("{}…", &se.name[..33])
        } else {
            se.name.clone()
        };
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="12">{}</text>"##,
            lx + 32.0,
            ly + 4.0,
            esc(&name)
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_is_wellformed_and_escaped() {
        let s = grid("a<b", "", 2, 3, |m, n| {
            Some(Cell {
                fill: ramp(0.5),
                lines: vec![format!("{}", m * 3 + n)],
            })
        });
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert!(s.contains("a&lt;b"));
        assert_eq!(s.matches("<rect ").count(), 1 + 6);
    }

    #[test]
    fn ramp_and_contrast() {
        assert_eq!(ramp(0.0), "#fff7bc");
        assert!(!dark(&ramp(1.0)));
        assert!(dark("#4d4d4d"));
        assert!((nice_step(3000.0, 6.0) - 500.0).abs() < 1e-9);
    }
}
