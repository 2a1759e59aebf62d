// Generated: `Get<I>` for tuples of arity 1..=10.
impl<A: Copy> Get<0> for (A,) {
    type Output = A;
    #[inline(always)]
    fn get(self) -> A {
        self.0
    }
}
impl<A: Copy, B: Copy> Get<0> for (A, B,) {
    type Output = A;
    #[inline(always)]
    fn get(self) -> A {
        self.0
    }
}
impl<A: Copy, B: Copy> Get<1> for (A, B,) {
    type Output = B;
    #[inline(always)]
    fn get(self) -> B {
        self.1
    }
}
impl<A: Copy, B: Copy, C2: Copy> Get<0> for (A, B, C2,) {
    type Output = A;
    #[inline(always)]
    fn get(self) -> A {
        self.0
    }
}
impl<A: Copy, B: Copy, C2: Copy> Get<1> for (A, B, C2,) {
    type Output = B;
    #[inline(always)]
    fn get(self) -> B {
        self.1
    }
}
impl<A: Copy, B: Copy, C2: Copy> Get<2> for (A, B, C2,) {
    type Output = C2;
    #[inline(always)]
    fn get(self) -> C2 {
        self.2
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy> Get<0> for (A, B, C2, D,) {
    type Output = A;
    #[inline(always)]
    fn get(self) -> A {
        self.0
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy> Get<1> for (A, B, C2, D,) {
    type Output = B;
    #[inline(always)]
    fn get(self) -> B {
        self.1
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy> Get<2> for (A, B, C2, D,) {
    type Output = C2;
    #[inline(always)]
    fn get(self) -> C2 {
        self.2
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy> Get<3> for (A, B, C2, D,) {
    type Output = D;
    #[inline(always)]
    fn get(self) -> D {
        self.3
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy> Get<0> for (A, B, C2, D, E,) {
    type Output = A;
    #[inline(always)]
    fn get(self) -> A {
        self.0
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy> Get<1> for (A, B, C2, D, E,) {
    type Output = B;
    #[inline(always)]
    fn get(self) -> B {
        self.1
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy> Get<2> for (A, B, C2, D, E,) {
    type Output = C2;
    #[inline(always)]
    fn get(self) -> C2 {
        self.2
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy> Get<3> for (A, B, C2, D, E,) {
    type Output = D;
    #[inline(always)]
    fn get(self) -> D {
        self.3
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy> Get<4> for (A, B, C2, D, E,) {
    type Output = E;
    #[inline(always)]
    fn get(self) -> E {
        self.4
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy> Get<0> for (A, B, C2, D, E, F,) {
    type Output = A;
    #[inline(always)]
    fn get(self) -> A {
        self.0
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy> Get<1> for (A, B, C2, D, E, F,) {
    type Output = B;
    #[inline(always)]
    fn get(self) -> B {
        self.1
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy> Get<2> for (A, B, C2, D, E, F,) {
    type Output = C2;
    #[inline(always)]
    fn get(self) -> C2 {
        self.2
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy> Get<3> for (A, B, C2, D, E, F,) {
    type Output = D;
    #[inline(always)]
    fn get(self) -> D {
        self.3
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy> Get<4> for (A, B, C2, D, E, F,) {
    type Output = E;
    #[inline(always)]
    fn get(self) -> E {
        self.4
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy> Get<5> for (A, B, C2, D, E, F,) {
    type Output = F;
    #[inline(always)]
    fn get(self) -> F {
        self.5
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy> Get<0> for (A, B, C2, D, E, F, G,) {
    type Output = A;
    #[inline(always)]
    fn get(self) -> A {
        self.0
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy> Get<1> for (A, B, C2, D, E, F, G,) {
    type Output = B;
    #[inline(always)]
    fn get(self) -> B {
        self.1
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy> Get<2> for (A, B, C2, D, E, F, G,) {
    type Output = C2;
    #[inline(always)]
    fn get(self) -> C2 {
        self.2
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy> Get<3> for (A, B, C2, D, E, F, G,) {
    type Output = D;
    #[inline(always)]
    fn get(self) -> D {
        self.3
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy> Get<4> for (A, B, C2, D, E, F, G,) {
    type Output = E;
    #[inline(always)]
    fn get(self) -> E {
        self.4
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy> Get<5> for (A, B, C2, D, E, F, G,) {
    type Output = F;
    #[inline(always)]
    fn get(self) -> F {
        self.5
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy> Get<6> for (A, B, C2, D, E, F, G,) {
    type Output = G;
    #[inline(always)]
    fn get(self) -> G {
        self.6
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy> Get<0> for (A, B, C2, D, E, F, G, H,) {
    type Output = A;
    #[inline(always)]
    fn get(self) -> A {
        self.0
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy> Get<1> for (A, B, C2, D, E, F, G, H,) {
    type Output = B;
    #[inline(always)]
    fn get(self) -> B {
        self.1
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy> Get<2> for (A, B, C2, D, E, F, G, H,) {
    type Output = C2;
    #[inline(always)]
    fn get(self) -> C2 {
        self.2
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy> Get<3> for (A, B, C2, D, E, F, G, H,) {
    type Output = D;
    #[inline(always)]
    fn get(self) -> D {
        self.3
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy> Get<4> for (A, B, C2, D, E, F, G, H,) {
    type Output = E;
    #[inline(always)]
    fn get(self) -> E {
        self.4
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy> Get<5> for (A, B, C2, D, E, F, G, H,) {
    type Output = F;
    #[inline(always)]
    fn get(self) -> F {
        self.5
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy> Get<6> for (A, B, C2, D, E, F, G, H,) {
    type Output = G;
    #[inline(always)]
    fn get(self) -> G {
        self.6
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy> Get<7> for (A, B, C2, D, E, F, G, H,) {
    type Output = H;
    #[inline(always)]
    fn get(self) -> H {
        self.7
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy> Get<0> for (A, B, C2, D, E, F, G, H, I,) {
    type Output = A;
    #[inline(always)]
    fn get(self) -> A {
        self.0
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy> Get<1> for (A, B, C2, D, E, F, G, H, I,) {
    type Output = B;
    #[inline(always)]
    fn get(self) -> B {
        self.1
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy> Get<2> for (A, B, C2, D, E, F, G, H, I,) {
    type Output = C2;
    #[inline(always)]
    fn get(self) -> C2 {
        self.2
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy> Get<3> for (A, B, C2, D, E, F, G, H, I,) {
    type Output = D;
    #[inline(always)]
    fn get(self) -> D {
        self.3
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy> Get<4> for (A, B, C2, D, E, F, G, H, I,) {
    type Output = E;
    #[inline(always)]
    fn get(self) -> E {
        self.4
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy> Get<5> for (A, B, C2, D, E, F, G, H, I,) {
    type Output = F;
    #[inline(always)]
    fn get(self) -> F {
        self.5
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy> Get<6> for (A, B, C2, D, E, F, G, H, I,) {
    type Output = G;
    #[inline(always)]
    fn get(self) -> G {
        self.6
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy> Get<7> for (A, B, C2, D, E, F, G, H, I,) {
    type Output = H;
    #[inline(always)]
    fn get(self) -> H {
        self.7
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy> Get<8> for (A, B, C2, D, E, F, G, H, I,) {
    type Output = I;
    #[inline(always)]
    fn get(self) -> I {
        self.8
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy, J: Copy> Get<0> for (A, B, C2, D, E, F, G, H, I, J,) {
    type Output = A;
    #[inline(always)]
    fn get(self) -> A {
        self.0
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy, J: Copy> Get<1> for (A, B, C2, D, E, F, G, H, I, J,) {
    type Output = B;
    #[inline(always)]
    fn get(self) -> B {
        self.1
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy, J: Copy> Get<2> for (A, B, C2, D, E, F, G, H, I, J,) {
    type Output = C2;
    #[inline(always)]
    fn get(self) -> C2 {
        self.2
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy, J: Copy> Get<3> for (A, B, C2, D, E, F, G, H, I, J,) {
    type Output = D;
    #[inline(always)]
    fn get(self) -> D {
        self.3
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy, J: Copy> Get<4> for (A, B, C2, D, E, F, G, H, I, J,) {
    type Output = E;
    #[inline(always)]
    fn get(self) -> E {
        self.4
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy, J: Copy> Get<5> for (A, B, C2, D, E, F, G, H, I, J,) {
    type Output = F;
    #[inline(always)]
    fn get(self) -> F {
        self.5
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy, J: Copy> Get<6> for (A, B, C2, D, E, F, G, H, I, J,) {
    type Output = G;
    #[inline(always)]
    fn get(self) -> G {
        self.6
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy, J: Copy> Get<7> for (A, B, C2, D, E, F, G, H, I, J,) {
    type Output = H;
    #[inline(always)]
    fn get(self) -> H {
        self.7
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy, J: Copy> Get<8> for (A, B, C2, D, E, F, G, H, I, J,) {
    type Output = I;
    #[inline(always)]
    fn get(self) -> I {
        self.8
    }
}
impl<A: Copy, B: Copy, C2: Copy, D: Copy, E: Copy, F: Copy, G: Copy, H: Copy, I: Copy, J: Copy> Get<9> for (A, B, C2, D, E, F, G, H, I, J,) {
    type Output = J;
    #[inline(always)]
    fn get(self) -> J {
        self.9
    }
}
