;; The vector loops of terms.go and table.go for WebAssembly, in its 128-bit
;; SIMD: what terms_amd64.s is to amd64. Go's wasm port emits no SIMD and
;; checks bounds at every index, so the Go loops ran about 7 times slower in
;; a browser than natively. A Go program built with -tags wkpisimd imports
;; these functions (terms_wasm.go), and its loader (public/kernel.js, used by
;; public/worker.js, and by testdata/wasm_exec_kernel.js for the tests)
;; instantiates this module on the Go program's own memory, so the functions
;; take Go slices as addresses into that memory. make web assembles it with
;; wabt's wat2wasm.
;;
;; Every result has the bits of the Go loop: each operation is the Go code's
;; own, in its order, rounded as Go rounds it (a multiply, then an add: no
;; fused multiply-add), checked bit for bit by TestSubTermsBits,
;; TestCommonMatches, TestDivergencesBits, TestDots2Bits and
;; TestDifferencesBits run on this module (TestVectorLoopsWasm).
(module
  (import "go" "mem" (memory 0))

  ;; common(abits, bbits, words, brank, img, rf, bval, bf, at, diff, g) -> e
  ;; is commonGo's loop: for every pixel s in both supports, in ascending
  ;; order, at[e] = s, diff[e] = img[s] - bval[n] and g[e] = rf[s] + bf[n],
  ;; n the rank of s in b's support (brank[q] + the bits of b's word q
  ;; below s); it returns how many. The caller checks the lengths.
  (func (export "common")
    (param $abits i32) (param $bbits i32) (param $words i32) (param $brank i32)
    (param $img i32) (param $rf i32) (param $bval i32) (param $bf i32)
    (param $at i32) (param $diff i32) (param $g i32) (result i32)
    (local $e i32) (local $q i32) (local $bw i64) (local $m i64) (local $t i64)
    (local $s8 i32) (local $n8 i32) (local $rank i32) (local $e8 i32)
    (block $done
      (loop $word
        (br_if $done (i32.ge_u (local.get $q) (local.get $words)))
        (local.set $bw (i64.load (i32.add (local.get $bbits) (i32.shl (local.get $q) (i32.const 3)))))
        (local.set $m (i64.and (local.get $bw)
          (i64.load (i32.add (local.get $abits) (i32.shl (local.get $q) (i32.const 3))))))
        (local.set $rank (i32.load (i32.add (local.get $brank) (i32.shl (local.get $q) (i32.const 2)))))
        (block $next
          (loop $bit
            (br_if $next (i64.eqz (local.get $m)))
            (local.set $t (i64.ctz (local.get $m)))
            ;; s*8 and n*8: byte offsets of pixel s in a and of rank n in b.
            (local.set $s8 (i32.shl (i32.add (i32.shl (local.get $q) (i32.const 6)) (i32.wrap_i64 (local.get $t)))
              (i32.const 3)))
            (local.set $n8 (i32.shl
              (i32.add (local.get $rank)
                (i32.wrap_i64 (i64.popcnt (i64.and (local.get $bw)
                  (i64.sub (i64.shl (i64.const 1) (local.get $t)) (i64.const 1))))))
              (i32.const 3)))
            (local.set $e8 (i32.shl (local.get $e) (i32.const 3)))
            (i32.store (i32.add (local.get $at) (i32.shl (local.get $e) (i32.const 2)))
              (i32.shr_u (local.get $s8) (i32.const 3)))
            (f64.store (i32.add (local.get $diff) (local.get $e8))
              (f64.sub (f64.load (i32.add (local.get $img) (local.get $s8)))
                (f64.load (i32.add (local.get $bval) (local.get $n8)))))
            (f64.store (i32.add (local.get $g) (local.get $e8))
              (f64.add (f64.load (i32.add (local.get $rf) (local.get $s8)))
                (f64.load (i32.add (local.get $bf) (local.get $n8)))))
            (local.set $e (i32.add (local.get $e) (i32.const 1)))
            (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
            (br $bit)))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $word)))
    (local.get $e))

  ;; WKPITerm's constants as vectors, and the address of its table
  ;; exp2Neg64 (kernel.go) in the Go program's memory: set once by init.
  (global $max (mut v128) (v128.const i64x2 0 0))
  (global $inv (mut v128) (v128.const i64x2 0 0))
  (global $half (mut v128) (v128.const i64x2 0 0))
  (global $ln2h (mut v128) (v128.const i64x2 0 0))
  (global $ln2l (mut v128) (v128.const i64x2 0 0))
  (global $p720 (mut v128) (v128.const i64x2 0 0))
  (global $p120 (mut v128) (v128.const i64x2 0 0))
  (global $p24 (mut v128) (v128.const i64x2 0 0))
  (global $p6 (mut v128) (v128.const i64x2 0 0))
  (global $one (mut v128) (v128.const i64x2 0 0))
  (global $two (mut v128) (v128.const i64x2 0 0))
  (global $table (mut i32) (i32.const 0))

  ;; init(consts, table) reads termConsts (terms.go) and the address of
  ;; exp2Neg64 from the Go program, so that both use the same bits.
  (func (export "init") (param $consts i32) (param $table i32)
    (global.set $max (v128.load64_splat offset=0 (local.get $consts)))
    (global.set $inv (v128.load64_splat offset=8 (local.get $consts)))
    (global.set $half (v128.load64_splat offset=16 (local.get $consts)))
    (global.set $ln2h (v128.load64_splat offset=24 (local.get $consts)))
    (global.set $ln2l (v128.load64_splat offset=32 (local.get $consts)))
    (global.set $p720 (v128.load64_splat offset=40 (local.get $consts)))
    (global.set $p120 (v128.load64_splat offset=48 (local.get $consts)))
    (global.set $p24 (v128.load64_splat offset=56 (local.get $consts)))
    (global.set $p6 (v128.load64_splat offset=64 (local.get $consts)))
    (global.set $one (v128.load64_splat offset=72 (local.get $consts)))
    (global.set $two (v128.load64_splat offset=80 (local.get $consts)))
    (global.set $table (local.get $table)))

  ;; term(x) is WKPITerm of both lanes of x, with its operations in its
  ;; order.
  (func $term (param $x v128) (result v128)
    (local $k v128) (local $kf v128) (local $r v128) (local $q v128) (local $t v128) (local $j v128)
    ;; if x > termMax { x = termMax } (pmin: NaN stays NaN)
    (local.set $x (f64x2.pmin (local.get $x) (global.get $max)))
    ;; k = int(x*termInv + 0.5) (two int32 lanes), kf = float64(k)
    (local.set $k (i32x4.trunc_sat_f64x2_s_zero
      (f64x2.add (f64x2.mul (local.get $x) (global.get $inv)) (global.get $half))))
    (local.set $kf (f64x2.convert_low_i32x4_s (local.get $k)))
    ;; r = (kf*termLn2h - x) + kf*termLn2l
    (local.set $r (f64x2.add
      (f64x2.sub (f64x2.mul (local.get $kf) (global.get $ln2h)) (local.get $x))
      (f64x2.mul (local.get $kf) (global.get $ln2l))))
    ;; q = r * (1 + r*(1/2 + r*(1/6 + r*(1/24 + r*(1/120 + r*(1/720))))))
    (local.set $q (f64x2.mul (local.get $r) (global.get $p720)))
    (local.set $q (f64x2.mul (local.get $r) (f64x2.add (global.get $p120) (local.get $q))))
    (local.set $q (f64x2.mul (local.get $r) (f64x2.add (global.get $p24) (local.get $q))))
    (local.set $q (f64x2.mul (local.get $r) (f64x2.add (global.get $p6) (local.get $q))))
    (local.set $q (f64x2.mul (local.get $r) (f64x2.add (global.get $half) (local.get $q))))
    (local.set $q (f64x2.mul (local.get $r) (f64x2.add (global.get $one) (local.get $q))))
    ;; t = 2^-(k>>6) * exp2Neg64[k&63]: the power of two from its
    ;; exponent bits (1023 - k>>6) << 52, the table entry per lane.
    (local.set $t (i64x2.shl
      (i64x2.extend_low_i32x4_s (i32x4.sub (i32x4.splat (i32.const 1023))
        (i32x4.shr_s (local.get $k) (i32.const 6))))
      (i32.const 52)))
    (local.set $j (v128.and (local.get $k) (i32x4.splat (i32.const 63))))
    (local.set $t (f64x2.mul (local.get $t)
      (v128.load64_lane 1
        (i32.add (global.get $table) (i32.shl (i32x4.extract_lane 1 (local.get $j)) (i32.const 3)))
        (v128.load64_zero
          (i32.add (global.get $table) (i32.shl (i32x4.extract_lane 0 (local.get $j)) (i32.const 3)))))))
    ;; 2 * ((1 - t) - t*q)
    (f64x2.mul (global.get $two)
      (f64x2.sub (f64x2.sub (global.get $one) (local.get $t)) (f64x2.mul (local.get $t) (local.get $q)))))

  ;; subTerms(g, d, n, c) sets g[e] -= WKPITerm(d[e]*d[e]*c) for e < n, n
  ;; even, two at a time.
  (func (export "subTerms") (param $g i32) (param $d i32) (param $n i32) (param $c f64)
    (local $end i32) (local $cv v128) (local $x v128)
    (local.set $cv (f64x2.splat (local.get $c)))
    (local.set $end (i32.add (local.get $d) (i32.shl (local.get $n) (i32.const 3))))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_u (local.get $d) (local.get $end)))
        (local.set $x (v128.load (local.get $d)))
        (v128.store (local.get $g) (f64x2.sub (v128.load (local.get $g))
          (call $term (f64x2.mul (f64x2.mul (local.get $x) (local.get $x)) (local.get $cv)))))
        (local.set $d (i32.add (local.get $d) (i32.const 16)))
        (local.set $g (i32.add (local.get $g) (i32.const 16)))
        (br $pair))))

  ;; terms32(val, d, n, c) sets val[e] = float32(WKPITerm(d[e]*d[e]*c)) for
  ;; e < n, n even, two at a time: the pair table's terms.
  (func (export "terms32") (param $val i32) (param $d i32) (param $n i32) (param $c f64)
    (local $end i32) (local $cv v128) (local $x v128)
    (local.set $cv (f64x2.splat (local.get $c)))
    (local.set $end (i32.add (local.get $d) (i32.shl (local.get $n) (i32.const 3))))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_u (local.get $d) (local.get $end)))
        (local.set $x (v128.load (local.get $d)))
        (v128.store64_lane 0 (local.get $val) (f32x4.demote_f64x2_zero
          (call $term (f64x2.mul (f64x2.mul (local.get $x) (local.get $x)) (local.get $cv)))))
        (local.set $d (i32.add (local.get $d) (i32.const 16)))
        (local.set $val (i32.add (local.get $val) (i32.const 8)))
        (br $pair))))

  ;; differences(a, b, sa, sb, words, pix, d, room) -> e is the pair table's
  ;; loop over the union of two images' supports (bitmaps sa and sb): for
  ;; every pixel s where a[s] != b[s], in ascending order, pix[e] = s
  ;; (uint16) and d[e] = a[s] - b[s], for e < room; it returns how many
  ;; there are (room or more). With pix 0 it only counts.
  (func (export "differences")
    (param $a i32) (param $b i32) (param $sa i32) (param $sb i32) (param $words i32) (param $pix i32) (param $d i32)
    (param $room i32) (result i32)
    (local $e i32) (local $q i32) (local $m i64) (local $s i32) (local $v f64)
    (block $done
      (loop $word
        (br_if $done (i32.ge_u (local.get $q) (local.get $words)))
        (local.set $m (i64.or
          (i64.load (i32.add (local.get $sb) (i32.shl (local.get $q) (i32.const 3))))
          (i64.load (i32.add (local.get $sa) (i32.shl (local.get $q) (i32.const 3))))))
        (block $next
          (loop $bit
            (br_if $next (i64.eqz (local.get $m)))
            (local.set $s (i32.add (i32.shl (local.get $q) (i32.const 6)) (i32.wrap_i64 (i64.ctz (local.get $m)))))
            (local.set $v (f64.sub
              (f64.load (i32.add (local.get $a) (i32.shl (local.get $s) (i32.const 3))))
              (f64.load (i32.add (local.get $b) (i32.shl (local.get $s) (i32.const 3))))))
            (if (f64.ne (local.get $v) (f64.const 0))
              (then
                (if (i32.and (i32.ne (local.get $pix) (i32.const 0)) (i32.lt_u (local.get $e) (local.get $room)))
                  (then
                    (i32.store16 (i32.add (local.get $pix) (i32.shl (local.get $e) (i32.const 1))) (local.get $s))
                    (f64.store (i32.add (local.get $d) (i32.shl (local.get $e) (i32.const 3))) (local.get $v))))
                (local.set $e (i32.add (local.get $e) (i32.const 1)))))
            (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
            (br $bit)))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $word)))
    (local.get $e))

  ;; dots2(d, w0, w1, pix, val, n) is dots2's loop: d[0] = sum_e
  ;; w0[pix[e]]*val[e] and d[1] the same of w1, over e < n in ascending
  ;; order, pix uint16 pixel indices and val float32 terms.
  (func (export "dots2")
    (param $d i32) (param $w0 i32) (param $w1 i32) (param $pix i32) (param $val i32) (param $n i32)
    (local $end i32) (local $s8 i32) (local $v f64) (local $d0 f64) (local $d1 f64)
    (local.set $end (i32.add (local.get $pix) (i32.shl (local.get $n) (i32.const 1))))
    (block $done
      (loop $entry
        (br_if $done (i32.ge_u (local.get $pix) (local.get $end)))
        (local.set $s8 (i32.shl (i32.load16_u (local.get $pix)) (i32.const 3)))
        (local.set $v (f64.promote_f32 (f32.load (local.get $val))))
        (local.set $d0 (f64.add (local.get $d0)
          (f64.mul (f64.load (i32.add (local.get $w0) (local.get $s8))) (local.get $v))))
        (local.set $d1 (f64.add (local.get $d1)
          (f64.mul (f64.load (i32.add (local.get $w1) (local.get $s8))) (local.get $v))))
        (local.set $pix (i32.add (local.get $pix) (i32.const 2)))
        (local.set $val (i32.add (local.get $val) (i32.const 4)))
        (br $entry)))
    (f64.store offset=0 (local.get $d) (local.get $d0))
    (f64.store offset=8 (local.get $d) (local.get $d1)))

  ;; sums4(d, w, at, n, g, stride, groups) is sums4AVX2: for each of groups
  ;; (1 to 4) groups of four kernels, d[4j+i] = sum_e w[at[e]*stride+4j+i] *
  ;; g[e] over e < n in ascending order, each product rounded before its add.
  ;; One loop per number of groups, so that the sums stay in locals.
  (func (export "sums4")
    (param $d i32) (param $w i32) (param $at i32) (param $n i32) (param $g i32) (param $stride i32) (param $groups i32)
    (local $end i32) (local $o i32) (local $gv v128)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (local $s4 v128) (local $s5 v128) (local $s6 v128) (local $s7 v128)
    (local.set $end (i32.add (local.get $at) (i32.shl (local.get $n) (i32.const 2))))
    ;; stride in bytes
    (local.set $stride (i32.shl (local.get $stride) (i32.const 3)))
    (block $store
      (block $g1
        (block $g2
          (block $g3
            (br_table $g1 $g2 $g3 $g1 (i32.sub (local.get $groups) (i32.const 1)))
          )
          ;; three groups
          (block $done3
            (loop $l3
              (br_if $done3 (i32.ge_u (local.get $at) (local.get $end)))
              (local.set $o (i32.add (local.get $w) (i32.mul (i32.load (local.get $at)) (local.get $stride))))
              (local.set $gv (v128.load64_splat (local.get $g)))
              (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (v128.load offset=0 (local.get $o)) (local.get $gv))))
              (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (v128.load offset=16 (local.get $o)) (local.get $gv))))
              (local.set $s2 (f64x2.add (local.get $s2) (f64x2.mul (v128.load offset=32 (local.get $o)) (local.get $gv))))
              (local.set $s3 (f64x2.add (local.get $s3) (f64x2.mul (v128.load offset=48 (local.get $o)) (local.get $gv))))
              (local.set $s4 (f64x2.add (local.get $s4) (f64x2.mul (v128.load offset=64 (local.get $o)) (local.get $gv))))
              (local.set $s5 (f64x2.add (local.get $s5) (f64x2.mul (v128.load offset=80 (local.get $o)) (local.get $gv))))
              (local.set $at (i32.add (local.get $at) (i32.const 4)))
              (local.set $g (i32.add (local.get $g) (i32.const 8)))
              (br $l3)))
          (br $store))
        ;; two groups
        (block $done2
          (loop $l2
            (br_if $done2 (i32.ge_u (local.get $at) (local.get $end)))
            (local.set $o (i32.add (local.get $w) (i32.mul (i32.load (local.get $at)) (local.get $stride))))
            (local.set $gv (v128.load64_splat (local.get $g)))
            (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (v128.load offset=0 (local.get $o)) (local.get $gv))))
            (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (v128.load offset=16 (local.get $o)) (local.get $gv))))
            (local.set $s2 (f64x2.add (local.get $s2) (f64x2.mul (v128.load offset=32 (local.get $o)) (local.get $gv))))
            (local.set $s3 (f64x2.add (local.get $s3) (f64x2.mul (v128.load offset=48 (local.get $o)) (local.get $gv))))
            (local.set $at (i32.add (local.get $at) (i32.const 4)))
            (local.set $g (i32.add (local.get $g) (i32.const 8)))
            (br $l2)))
        (br $store))
      ;; one group, or four
      (if (i32.eq (local.get $groups) (i32.const 4))
        (then
          (block $done4
            (loop $l4
              (br_if $done4 (i32.ge_u (local.get $at) (local.get $end)))
              (local.set $o (i32.add (local.get $w) (i32.mul (i32.load (local.get $at)) (local.get $stride))))
              (local.set $gv (v128.load64_splat (local.get $g)))
              (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (v128.load offset=0 (local.get $o)) (local.get $gv))))
              (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (v128.load offset=16 (local.get $o)) (local.get $gv))))
              (local.set $s2 (f64x2.add (local.get $s2) (f64x2.mul (v128.load offset=32 (local.get $o)) (local.get $gv))))
              (local.set $s3 (f64x2.add (local.get $s3) (f64x2.mul (v128.load offset=48 (local.get $o)) (local.get $gv))))
              (local.set $s4 (f64x2.add (local.get $s4) (f64x2.mul (v128.load offset=64 (local.get $o)) (local.get $gv))))
              (local.set $s5 (f64x2.add (local.get $s5) (f64x2.mul (v128.load offset=80 (local.get $o)) (local.get $gv))))
              (local.set $s6 (f64x2.add (local.get $s6) (f64x2.mul (v128.load offset=96 (local.get $o)) (local.get $gv))))
              (local.set $s7 (f64x2.add (local.get $s7) (f64x2.mul (v128.load offset=112 (local.get $o)) (local.get $gv))))
              (local.set $at (i32.add (local.get $at) (i32.const 4)))
              (local.set $g (i32.add (local.get $g) (i32.const 8)))
              (br $l4))))
        (else
          (block $done1
            (loop $l1
              (br_if $done1 (i32.ge_u (local.get $at) (local.get $end)))
              (local.set $o (i32.add (local.get $w) (i32.mul (i32.load (local.get $at)) (local.get $stride))))
              (local.set $gv (v128.load64_splat (local.get $g)))
              (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (v128.load offset=0 (local.get $o)) (local.get $gv))))
              (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (v128.load offset=16 (local.get $o)) (local.get $gv))))
              (local.set $at (i32.add (local.get $at) (i32.const 4)))
              (local.set $g (i32.add (local.get $g) (i32.const 8)))
              (br $l1))))))
    ;; Store the groups' sums, and only theirs.
    (v128.store offset=0 (local.get $d) (local.get $s0))
    (v128.store offset=16 (local.get $d) (local.get $s1))
    (if (i32.ge_u (local.get $groups) (i32.const 2))
      (then
        (v128.store offset=32 (local.get $d) (local.get $s2))
        (v128.store offset=48 (local.get $d) (local.get $s3))))
    (if (i32.ge_u (local.get $groups) (i32.const 3))
      (then
        (v128.store offset=64 (local.get $d) (local.get $s4))
        (v128.store offset=80 (local.get $d) (local.get $s5))))
    (if (i32.ge_u (local.get $groups) (i32.const 4))
      (then
        (v128.store offset=96 (local.get $d) (local.get $s6))
        (v128.store offset=112 (local.get $d) (local.get $s7))))
  )
)
