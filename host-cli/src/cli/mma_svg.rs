//! `host layout --mma ATOM ATOM_LAYOUT [PERMUTATION]`: a TiledMMA's thread/value assignment of
//! its A, B and C tiles, as text tables and as one SVG picture laid out like CuTe's
//! `print_latex(TiledMMA)`: B (K x N) on top, A (M x K) on the left, C (M x N) below B.
//!
//! Pure functions: [`report`] returns the text and the SVG; the caller writes the file.

use std::fmt::Write;

use layout_types::text::parse::{parse_layout, parse_tiler};
use layout_types::value::layout::DynLayout;
use layout_types::value::mma::{MmaAtom, Operand, TiledMma};

use super::svg;

/// Tables with more cells than this are summarised unless `table` is set.
const TABLE_CELLS: usize = 4096;
/// Pictures with more cells than this (A, B and C together) are refused.
const SVG_CELLS: usize = 65536;

/// Who owns each element of a `rows x cols` picture of one operand: the first `(thread, value)`
/// that maps there (threads in order, then values, as `print_latex` fills its cells).
#[derive(Debug, Clone, PartialEq)]
pub struct Owners {
    /// Rows of the picture.
    pub rows: usize,
    /// Columns of the picture.
    pub cols: usize,
    /// Row-major cells.
    pub cells: Vec<Option<(i64, i64)>>,
}

impl Owners {
    /// The owner of cell `(r, c)`.
    pub fn at(&self, r: usize, c: usize) -> Option<(i64, i64)> {
        self.cells[r * self.cols + c]
    }
}

/// The owners of a TV layout over a column-major `(d0, d1)` tile; `transpose` draws it as
/// `d1` rows by `d0` columns (B is drawn K x N).
pub fn owners(layout_tv: &DynLayout, d0: usize, d1: usize, transpose: bool) -> Owners {
    let (rows, cols) = if transpose { (d1, d0) } else { (d0, d1) };
    let mut cells = vec![None; rows * cols];
    let (t_mode, v_mode) = (layout_tv.get(0), layout_tv.get(1));
    for t in 0..t_mode.size().v {
        for v in 0..v_mode.size().v {
            let idx = t_mode.call(t) + v_mode.call(v);
            if idx < 0 {
                continue;
            }
            let (i0, i1) = ((idx as usize) % d0, (idx as usize) / d0);
            if i1 >= d1 {
                continue;
            }
            let (r, c) = if transpose { (i1, i0) } else { (i0, i1) };
            if cells[r * cols + c].is_none() {
                cells[r * cols + c] = Some((t, v));
            }
        }
    }
    Owners { rows, cols, cells }
}

/// A `print_layout`-style table of `T<t>V<v>` owners.
pub fn owners_table(o: &Owners) -> String {
    let text = |r: usize, c: usize| {
        o.at(r, c)
            .map_or("-".to_string(), |(t, v)| format!("T{t}V{v}"))
    };
    let w = (0..o.rows)
        .flat_map(|r| (0..o.cols).map(move |c| (r, c)))
        .map(|(r, c)| text(r, c).len())
        .max()
        .unwrap_or(1);
    let bar = format!("+{}", "-".repeat(w + 2));
    let mut s = String::from("    ");
    for c in 0..o.cols {
        let _ = write!(s, "  {c:>w$} ");
    }
    s.push('\n');
    let line = format!("    {}+\n", bar.repeat(o.cols));
    for r in 0..o.rows {
        s += &line;
        let _ = write!(s, "{r:>2}  ");
        for c in 0..o.cols {
            let _ = write!(s, "| {:>w$} ", text(r, c));
        }
        s += "|\n";
    }
    s + &line
}

/// A TiledMMA and the owners of its three tiles.
pub struct MmaPicture {
    /// `make_tiled_mma(ATOM, ATOM_LAYOUT[, PERMUTATION])` as given.
    pub call: String,
    /// The TiledMMA.
    pub mma: TiledMma,
    /// `(tile_M, tile_N, tile_K)`.
    pub mnk: [usize; 3],
    /// A, drawn M x K.
    pub a: Owners,
    /// B, drawn K x N.
    pub b: Owners,
    /// C, drawn M x N.
    pub c: Owners,
    /// `get_layoutA_TV`, `B`, `C`.
    pub layouts: [DynLayout; 3],
}

/// Builds `make_tiled_mma(atom, atom_layout[, permutation])` from CuTe text and computes who owns
/// every element of A, B and C.
pub fn picture(atom: &str, atom_layout: &str, perm: Option<&str>) -> Result<MmaPicture, String> {
    let at = MmaAtom::parse(atom).map_err(|e| format!("{atom}: {e}"))?;
    let l = parse_layout(atom_layout).map_err(|e| format!("atom layout `{atom_layout}`: {e}"))?;
    let p = match perm {
        Some(p) => parse_tiler(p).map_err(|e| format!("permutation `{p}`: {e}"))?,
        None => TiledMma::no_permutation(),
    };
    let mma = TiledMma::new(&at, &l, &p).map_err(|e| format!("make_tiled_mma: {e}"))?;
    let mnk = [0, 1, 2].map(|i| mma.tile_size(i) as usize);
    let cells = mnk[0] * mnk[2] + mnk[2] * mnk[1] + mnk[0] * mnk[1];
    if cells > SVG_CELLS {
        return Err(format!(
            "the TiledMMA tile is {}x{}x{}: too large to show",
            mnk[0], mnk[1], mnk[2]
        ));
    }
    let lay = |op| {
        mma.layout_tv(op)
            .map_err(|e| format!("get_layout{op:?}_TV: {e}"))
    };
    let layouts = [lay(Operand::A)?, lay(Operand::B)?, lay(Operand::C)?];
    let call = match perm {
        Some(p) => format!("make_tiled_mma({}, {l}, {p})", at.op),
        None => format!("make_tiled_mma({}, {l})", at.op),
    };
    Ok(MmaPicture {
        call,
        a: owners(&layouts[0], mnk[0], mnk[2], false),
        b: owners(&layouts[1], mnk[1], mnk[2], true),
        c: owners(&layouts[2], mnk[0], mnk[1], false),
        mma,
        mnk,
        layouts,
    })
}

/// The text report: the TiledMMA's layouts, then the C, A and B owner tables.
pub fn text(p: &MmaPicture, table: bool) -> String {
    let [m, n, k] = p.mnk;
    let mut s = String::new();
    let _ = writeln!(s, "{}", p.call);
    let _ = writeln!(s, "  ThrLayoutVMNK:  {}", p.mma.thr_layout_vmnk);
    let _ = writeln!(s, "  PermutationMNK: {}", perm_text(&p.mma));
    let _ = writeln!(
        s,
        "  tile_mnk:       {}   {} threads",
        p.mma.tile_shape(),
        p.mma.size()
    );
    let _ = writeln!(
        s,
        "  LayoutA_TV:     {}   (thread, value) -> (m,k) in the {m}x{k} tile",
        p.layouts[0]
    );
    let _ = writeln!(
        s,
        "  LayoutB_TV:     {}   (thread, value) -> (n,k) in the {n}x{k} tile",
        p.layouts[1]
    );
    let _ = writeln!(
        s,
        "  LayoutC_TV:     {}   (thread, value) -> (m,n) in the {m}x{n} tile",
        p.layouts[2]
    );
    for (name, o) in [
        ("C (M x N)", &p.c),
        ("A (M x K)", &p.a),
        ("B (K x N)", &p.b),
    ] {
        let _ = writeln!(s, "{name}: {} x {}", o.rows, o.cols);
        if o.rows * o.cols <= TABLE_CELLS || table {
            s += &owners_table(o);
        } else {
            let _ = writeln!(
                s,
                "(table omitted: {} cells; pass --table, or --svg FILE)",
                o.rows * o.cols
            );
        }
    }
    s
}

fn perm_text(mma: &TiledMma) -> String {
    let t = &mma.permutation_mnk;
    let modes: Vec<String> = (0..t.rank())
        .map(|i| {
            if t.is_under(i) {
                "_".to_string()
            } else {
                t.modes.get(i).to_string()
            }
        })
        .collect();
    format!("[{}]", modes.join(","))
}

/// The SVG: B (K x N) top right, A (M x K) bottom left, C (M x N) bottom right, each cell
/// `T<t>` / `V<v>` coloured by `t % 8` (CuTe's `TikzColor_TV`), with row and column labels.
pub fn svg(p: &MmaPicture) -> String {
    let [m, n, k] = p.mnk;
    let (cw, ch, font) = (44.0f64, 34.0f64, 11.0f64);
    let gap = 30.0; // room for labels between the blocks
    let (x_a, y_top) = (40.0, 78.0);
    let x_c = x_a + k as f64 * cw + gap;
    let y_c = y_top + k as f64 * ch + gap;
    let w = x_c + n as f64 * cw + 20.0;
    let h = y_c + m as f64 * ch + 20.0;
    let title = p.call.clone();
    let sub = format!(
        "tile (M,N,K) = ({m},{n},{k}), {} threads; colour: thread % 8 (CuTe TV palette)",
        p.mma.size()
    );
    let w = w
        .max(title.len() as f64 * 8.6 + 30.0)
        .max(sub.len() as f64 * 7.0 + 30.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">"##
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="white"/>"##);
    let _ = writeln!(
        s,
        r##"<text x="10" y="22" font-size="15" font-weight="bold">{}</text>"##,
        svg::esc(&title)
    );
    let _ = writeln!(
        s,
        r##"<text x="10" y="40" font-size="12" fill="#444">{}</text>"##,
        svg::esc(&sub)
    );
    block(&mut s, &p.b, x_c, y_top, cw, ch, font, "B", "n", "k");
    block(&mut s, &p.a, x_a, y_c, cw, ch, font, "A", "k", "m");
    block(&mut s, &p.c, x_c, y_c, cw, ch, font, "C", "n", "m");
    s.push_str("</svg>\n");
    s
}

#[allow(clippy::too_many_arguments)]
fn block(
    s: &mut String,
    o: &Owners,
    x0: f64,
    y0: f64,
    cw: f64,
    ch: f64,
    font: f64,
    name: &str,
    col_name: &str,
    row_name: &str,
) {
    let _ = writeln!(
        s,
        r##"<text x="{x0:.1}" y="{:.1}" font-size="12" font-weight="bold">{name} ({row_name} down, {col_name} across)</text>"##,
        y0 - 20.0
    );
    for c in 0..o.cols {
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="#555">{c}</text>"##,
            x0 + (c as f64 + 0.5) * cw,
            y0 - 5.0
        );
    }
    for r in 0..o.rows {
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="10" text-anchor="end" fill="#555">{r}</text>"##,
            x0 - 4.0,
            y0 + (r as f64 + 0.5) * ch + 3.5
        );
    }
    for r in 0..o.rows {
        for c in 0..o.cols {
            let Some((t, v)) = o.at(r, c) else { continue };
            let (x, y) = (x0 + c as f64 * cw, y0 + r as f64 * ch);
            let _ = writeln!(
                s,
                r##"<rect x="{x:.1}" y="{y:.1}" width="{cw:.1}" height="{ch:.1}" fill="{}"/>"##,
                svg::TV_PALETTE[t.rem_euclid(8) as usize]
            );
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}" font-size="{font}" text-anchor="middle">T{t}</text>"##,
                x + cw / 2.0,
                y + ch / 2.0 - 2.0
            );
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}" font-size="{font}" text-anchor="middle">V{v}</text>"##,
                x + cw / 2.0,
                y + ch / 2.0 + font
            );
        }
    }
    let (gw, gh) = (o.cols as f64 * cw, o.rows as f64 * ch);
    let mut path = String::new();
    for r in 0..=o.rows {
        let _ = write!(path, "M{x0:.1} {:.1}h{gw:.1}", y0 + r as f64 * ch);
    }
    for c in 0..=o.cols {
        let _ = write!(path, "M{:.1} {y0:.1}v{gh:.1}", x0 + c as f64 * cw);
    }
    let _ = writeln!(
        s,
        r##"<path d="{path}" stroke="black" stroke-width="1" fill="none"/>"##
    );
}

/// `host layout --mma ATOM ATOM_LAYOUT [PERMUTATION]`: the text report and, when `want_svg`, the
/// picture.
pub fn report(
    positional: &[String],
    want_svg: bool,
    table: bool,
) -> Result<(String, Option<String>), String> {
    let (atom, layout, perm) = match positional {
        [a, l] => (a, l, None),
        [a, l, p] => (a, l, Some(p.as_str())),
        _ => {
            return Err(format!(
                "--mma takes ATOM ATOM_LAYOUT [PERMUTATION], got {} arguments",
                positional.len()
            ));
        }
    };
    let p = picture(atom, layout, perm)?;
    Ok((text(&p, table), want_svg.then(|| svg(&p))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sm80_atom_owners_match_the_ptx_fragment_layout() {
        // mma.m16n8k16 C fragment: thread t holds rows t/4 and t/4+8, columns 2*(t%4) and +1
        let p = picture("SM80_16x8x16_F32F16F16F32_TN", "(_1,_1,_1)", None).unwrap();
        assert_eq!(p.mnk, [16, 8, 16]);
        for t in 0..32usize {
            let (r, c) = (t / 4, 2 * (t % 4));
            assert_eq!(p.c.at(r, c), Some((t as i64, 0)));
            assert_eq!(p.c.at(r, c + 1), Some((t as i64, 1)));
            assert_eq!(p.c.at(r + 8, c), Some((t as i64, 2)));
        }
        // every element of A, B and C has an owner
        for o in [&p.a, &p.b, &p.c] {
            assert!(o.cells.iter().all(Option::is_some));
        }
        assert_eq!((p.b.rows, p.b.cols), (16, 8)); // B drawn K x N
    }

    #[test]
    fn gmma_ss_operands_are_shared_by_the_warpgroup() {
        let p = picture("SM90_64x8x16_F32BF16BF16_SS<K,K>", "(_1,_1,_1)", None).unwrap();
        // every thread sees the whole smem tile: the first owner of each element is thread 0
        assert!(p.a.cells.iter().all(|c| matches!(c, Some((0, _)))));
        let svg = svg(&p);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<rect").count(), 1 + 64 * 16 + 16 * 8 + 64 * 8);
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(report(&["SM80_16x8x16_F32F16F16F32_TN".into()], false, false).is_err());
        let e = picture("SM90_64x8x16_F32BF16BF16_RS<MN,K>", "(_1,_1,_1)", None)
            .err()
            .unwrap();
        assert!(e.contains("K major"), "{e}");
    }
}
