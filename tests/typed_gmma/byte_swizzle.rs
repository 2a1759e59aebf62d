// Where a typed tensor over a GMMA atom or tile places its elements: CuTe's `swizzle_ptr`
// (`Sw` applied to the BYTE offset, `smem_ptr_flag_bits<B>` in the middle), checked element by
// element against a byte-level reference and the value algebra's
// `ComposedLayout::element_offset`, through both `Tensor::ptr` and a TiledCopy's
// `TileLayout::eval`.

use cute_rs::layout_types::cute::atom::copy::TileLayout;
use cute_rs::layout_types::cute::swizzle::Swizzled;
use cute_rs::layout_types::value::swizzle::StaticSwizzle;

/// `Sw(L(c) · sizeof(T)) / sizeof(T)`: the hardware's element placement.
fn byte_reference<Sw: StaticSwizzle, T>(l_of_c: i64) -> i64 {
    let n = size_of::<T>() as i64;
    let b = Sw::SW.apply(l_of_c * n);
    assert_eq!(b % n, 0, "a byte swizzle moved an element off its alignment");
    b / n
}

/// Every element `(m, n)` (1-D index `m + rows·n`) of a rank-2 swizzled layout: the tensor's
/// pointer, the byte reference and the value algebra agree, and no two elements share a place;
/// returns how many elements the placement moves from the layout function.
fn check_tensor<T: Copy + Default, Sw, S, D, O>(
    s: Swizzled<Sw, Layout<S, D>, O>,
    rows: i32,
    cols: i32,
) -> usize
where
    Sw: StaticSwizzle + Display,
    S: IntTuple,
    D: IntTuple,
    O: cute_rs::layout_types::cute::swizzle::SwizzleOffset,
    (i32, i32): cute_rs::layout_types::cute::layout::Crd2Idx<S, D>,
    <(i32, i32) as cute_rs::layout_types::cute::layout::Crd2Idx<S, D>>::Output:
        cute_rs::layout_types::cute::int::Integral
            + cute_rs::layout_types::cute::swizzle::SwizzleIndex<Output = i32>,
{
    let value: ComposedLayout = s.to_string().parse().unwrap();
    let cosize = value.layout.cosize().v as usize;
    assert_eq!(value.layout.size().v, (rows * cols) as i64, "{s}");
    let mut buf = vec![T::default(); cosize];
    let base = buf.as_mut_ptr();
    let t = make_tensor(make_smem_ptr(base), s);
    let mut moved = 0;
    let mut seen = vec![false; cosize];
    for n in 0..cols {
        for m in 0..rows {
            let l = s.layout.crd2idx((m, n)).value();
            let want = byte_reference::<Sw, T>(l);
            let got = unsafe { t.ptr((m, n)).offset_from(base) } as i64;
            assert_eq!(got, want, "{s}: tensor at ({m}, {n})");
            let i = m as i64 + rows as i64 * n as i64;
            assert_eq!(value.element_offset(i), Ok(want), "{s}: value at {i}");
            assert!(!seen[want as usize], "{s}: element {want} placed twice");
            seen[want as usize] = true;
            moved += usize::from(want != s.crd2idx((m, n)) as i64);
        }
    }
    moved
}

/// A GMMA atom (a flat rank-2 layout, a TiledCopy's `TileLayout`): `check_tensor`, and the
/// partition's `eval` places every element as the tensor does.
fn check_atom<T: Copy + Default, Sw, S, D, O>(s: Swizzled<Sw, Layout<S, D>, O>) -> usize
where
    Sw: StaticSwizzle + Display,
    S: IntTuple,
    D: IntTuple,
    O: cute_rs::layout_types::cute::swizzle::SwizzleOffset,
    Swizzled<Sw, Layout<S, D>, O>: TileLayout<Off = i32>,
    (i32, i32): cute_rs::layout_types::cute::layout::Crd2Idx<S, D>,
    <(i32, i32) as cute_rs::layout_types::cute::layout::Crd2Idx<S, D>>::Output:
        cute_rs::layout_types::cute::int::Integral
            + cute_rs::layout_types::cute::swizzle::SwizzleIndex<Output = i32>,
{
    let rows = <<Swizzled<Sw, Layout<S, D>, O> as TileLayout>::M as StaticInt>::VALUE as i32;
    let cols = <<Swizzled<Sw, Layout<S, D>, O> as TileLayout>::N as StaticInt>::VALUE as i32;
    for n in 0..cols {
        for m in 0..rows {
            let want = byte_reference::<Sw, T>(s.layout.crd2idx((m, n)).value());
            assert_eq!(TileLayout::eval(&s, (m, n)) as i64, want, "{s}: eval at ({m}, {n})");
        }
    }
    check_tensor::<T, _, _, _, _>(s, rows, cols)
}

macro_rules! every_atom {
    ($($t:ty),*) => {$({
        let mut moved = [0usize; 8];
        moved[0] = check_atom::<$t, _, _, _, _>(Layout_K_INTER_Atom::<$t>::new());
        moved[1] = check_atom::<$t, _, _, _, _>(Layout_K_SW32_Atom::<$t>::new());
        moved[2] = check_atom::<$t, _, _, _, _>(Layout_K_SW64_Atom::<$t>::new());
        moved[3] = check_atom::<$t, _, _, _, _>(Layout_K_SW128_Atom::<$t>::new());
        moved[4] = check_atom::<$t, _, _, _, _>(Layout_MN_INTER_Atom::<$t>::new());
        moved[5] = check_atom::<$t, _, _, _, _>(Layout_MN_SW32_Atom::<$t>::new());
        moved[6] = check_atom::<$t, _, _, _, _>(Layout_MN_SW64_Atom::<$t>::new());
        moved[7] = check_atom::<$t, _, _, _, _>(Layout_MN_SW128_Atom::<$t>::new());
        // INTERLEAVE (Sw<0,4,3>) is the identity; every swizzled atom differs from the
        // element-unit reading of its layout function unless the element is one byte
        let byte = size_of::<$t>() == 1;
        assert_eq!(moved[0] + moved[4], 0);
        for k in [1, 2, 3, 5, 6, 7] {
            assert_eq!(moved[k] == 0, byte, "{} atom {k}: {} moved", stringify!($t), moved[k]);
        }
    })*};
}

/// Every GMMA atom × 8/16/32-bit elements: the tensor places each element where the hardware
/// (byte swizzle) does.
#[test]
fn gmma_atoms_place_elements_by_byte_swizzle() {
    every_atom!(u8, u16, u32);
}

/// The example: u16 element (1, 8) of `Layout_K_SW128_Atom` is byte 144, swizzled to 128
/// (element 64); the layout function says 72.
#[test]
fn k_sw128_u16_element_1_8_is_64() {
    let atom = Layout_K_SW128_Atom::<u16>::new();
    let mut buf = [0u16; 512];
    let t = make_tensor(make_smem_ptr(buf.as_mut_ptr()), atom);
    assert_eq!(atom.crd2idx((1i32, 8i32)), 72);
    assert_eq!(unsafe { t.ptr((1i32, 8i32)).offset_from(buf.as_ptr()) }, 64);
    assert_eq!(TileLayout::eval(&atom, (1, 8)), 64);
    assert_eq!(
        <cute_rs::layout_types::cute::swizzle::TensorSwizzle<
            Swizzle<3, 4, 3>,
            SmemPtrFlag<cute_rs::layout_types::cute::typenum::P16>,
        > as StaticSwizzle>::SW
            .base,
        3
    );
}

/// Tiles built by `tile_to_shape` (rank 2, both orders) and a multi-stage rank-3 tile
/// `(_128, _64, _4)`: every element against the byte reference and the value algebra.
#[test]
fn tiled_and_multistage_tiles_place_elements_by_byte_swizzle() {
    let moved = check_tensor::<u16, _, _, _, _>(
        tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_128, _64), LayoutLeft),
        128,
        64,
    );
    assert!(moved > 0);
    let moved = check_tensor::<u32, _, _, _, _>(
        tile_to_shape(Layout_MN_SW64_Atom::<u32>::new(), (_64, _32), LayoutRight),
        64,
        32,
    );
    assert!(moved > 0);
    let moved = check_tensor::<u8, _, _, _, _>(
        tile_to_shape(Layout_K_SW32_Atom::<u8>::new(), (_16, _64), LayoutLeft),
        16,
        64,
    );
    assert_eq!(moved, 0); // one-byte elements: bytes are elements

    let s = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_128, _64, _4), LayoutLeft);
    let value: ComposedLayout = s.to_string().parse().unwrap();
    let mut buf = vec![0u16; value.layout.cosize().v as usize];
    let base = buf.as_mut_ptr();
    let t = make_tensor(make_smem_ptr(base), s);
    let mut seen = vec![false; buf.len()];
    for st in 0..4i32 {
        for k in 0..64i32 {
            for m in 0..128i32 {
                let want = byte_reference::<Swizzle<3, 4, 3>, u16>(s.layout.crd2idx((m, k, st)).value());
                let got = unsafe { t.ptr((m, k, st)).offset_from(base) } as i64;
                assert_eq!(got, want, "({m}, {k}, {st})");
                let i = m as i64 + 128 * (k as i64 + 64 * st as i64);
                assert_eq!(value.element_offset(i), Ok(want));
                assert!(!seen[want as usize]);
                seen[want as usize] = true;
            }
        }
    }
}

/// The `_0` middle (an element-unit swizzle, e.g. the transpose kernel's) keeps the layout
/// function as the placement.
#[test]
fn element_unit_swizzle_is_the_layout_function() {
    let moved = check_atom::<u8, _, _, _, _>(make_composed_layout(
        Swizzle::<3, 2, 3>,
        layout!((_32, _32):(_32, _1)),
    ));
    assert_eq!(moved, 0);
    let s = make_composed_layout(Swizzle::<3, 2, 3>, layout!((_32, _32):(_32, _1)));
    let mut buf = [0f32; 1024];
    let t = make_tensor(make_smem_ptr(buf.as_mut_ptr()), s);
    for (m, n) in [(1i32, 8i32), (5, 17), (31, 31)] {
        assert_eq!(unsafe { t.ptr((m, n)).offset_from(buf.as_ptr()) } as i64, s.crd2idx((m, n)) as i64);
    }
}

/// Sub-unit swizzles: `M < log2(sizeof(T))` cannot place elements by an element-offset swizzle
/// (CuTe's `upcast` has `NewM < 0`); the value algebra says so.
#[test]
fn byte_swizzle_below_the_element_width_is_an_error() {
    let g: ComposedLayout = "Sw<3,1,3> o smem_ptr[32b](unset) o (_8,_8):(_8,_1)".parse().unwrap();
    let e = g.element_offset(3).unwrap_err();
    assert!(e.to_string().contains("M >= log2(sizeof(T))"), "{e}");
    let g: ComposedLayout = "Sw<3,4,3> o smem_ptr[64b](unset) o (_8,_8):(_8,_1)".parse().unwrap();
    assert_eq!(g.element_offset(9), Ok(Swizzle::<3, 1, 3>::apply(9)));
}
