//! Square sets as bit sets, generic over the width a board needs: `u64` for
//! boards of up to 64 squares (8×8), `u128` up to 128 (10×10, 12×10), and
//! [`U256`] up to 256 (14×14 four-handed chess). Move generation is written
//! once against [`Bits`] and monomorphised per width, so 8×8 chess pays
//! nothing for 14×14 boards.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares, bit `i` for square index `i`.
pub trait Bits:
    Copy
    + Eq
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many squares fit.
    const CAPACITY: usize;
    /// The empty set.
    const EMPTY: Self;
    /// The set holding only `square`.
    fn bit(square: usize) -> Self;
    /// Whether `square` is in the set.
    fn has(self, square: usize) -> bool;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// The lowest square (the set must not be empty).
    fn lowest(self) -> usize;
    /// The highest square (the set must not be empty).
    fn highest(self) -> usize;
    /// The squares below 64, as a `u64` (the whole set on an 8×8 board).
    fn low_u64(self) -> u64;
    /// The set of the squares below 64 in `bits`.
    fn from_low_u64(bits: u64) -> Self;

    /// Whether the set is not empty.
    #[inline]
    fn any(self) -> bool {
        !self.is_empty()
    }
    /// Whether the set holds two or more squares.
    #[inline]
    fn more_than_one(self) -> bool {
        self.count() > 1
    }
    /// Adds `square`.
    #[inline]
    fn set(&mut self, square: usize) {
        *self |= Self::bit(square);
    }
    /// Removes `square`.
    #[inline]
    fn clear(&mut self, square: usize) {
        *self &= !Self::bit(square);
    }
    /// The squares in increasing order.
    #[inline]
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
}

/// Iterates the squares of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct SquareIter<B>(B);

impl<B: Bits> Iterator for SquareIter<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            None
        } else {
            let square = self.0.lowest();
            self.0.clear(square);
            Some(square)
        }
    }
}

macro_rules! primitive_bits {
    ($t:ty) => {
        impl Bits for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            const EMPTY: Self = 0;
            #[inline]
            fn bit(square: usize) -> Self {
                1 << square
            }
            #[inline]
            fn has(self, square: usize) -> bool {
                self >> square & 1 != 0
            }
            #[inline]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn highest(self) -> usize {
                (<$t>::BITS - 1 - self.leading_zeros()) as usize
            }
            #[inline]
            fn low_u64(self) -> u64 {
                self as u64
            }
            #[inline]
            fn from_low_u64(bits: u64) -> Self {
                bits as Self
            }
            #[inline]
            fn more_than_one(self) -> bool {
                self & self.wrapping_sub(1) != 0
            }
            #[inline]
            fn clear(&mut self, square: usize) {
                *self &= !(1 << square);
            }
        }
    };
}

primitive_bits!(u64);
primitive_bits!(u128);

/// A 256-square set for the largest boards.
#[derive(Copy, Clone, PartialEq, Eq, Default, Debug, Hash)]
pub struct U256(pub [u64; 4]);

impl BitAnd for U256 {
    type Output = Self;
    #[inline]
    fn bitand(self, o: Self) -> Self {
        U256(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}
impl BitOr for U256 {
    type Output = Self;
    #[inline]
    fn bitor(self, o: Self) -> Self {
        U256(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}
impl BitXor for U256 {
    type Output = Self;
    #[inline]
    fn bitxor(self, o: Self) -> Self {
        U256(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
    }
}
impl Not for U256 {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        U256(std::array::from_fn(|i| !self.0[i]))
    }
}
impl BitAndAssign for U256 {
    #[inline]
    fn bitand_assign(&mut self, o: Self) {
        *self = *self & o;
    }
}
impl BitOrAssign for U256 {
    #[inline]
    fn bitor_assign(&mut self, o: Self) {
        *self = *self | o;
    }
}
impl BitXorAssign for U256 {
    #[inline]
    fn bitxor_assign(&mut self, o: Self) {
        *self = *self ^ o;
    }
}

impl Bits for U256 {
    const CAPACITY: usize = 256;
    const EMPTY: Self = U256([0; 4]);
    #[inline]
    fn bit(square: usize) -> Self {
        let mut words = [0; 4];
        words[square >> 6] = 1 << (square & 63);
        U256(words)
    }
    #[inline]
    fn has(self, square: usize) -> bool {
        self.0[square >> 6] >> (square & 63) & 1 != 0
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.0 == [0; 4]
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> usize {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return i * 64 + w.trailing_zeros() as usize;
            }
        }
        256
    }
    #[inline]
    fn highest(self) -> usize {
        for i in (0..4).rev() {
            let w = self.0[i];
            if w != 0 {
                return i * 64 + 63 - w.leading_zeros() as usize;
            }
        }
        256
    }
    #[inline]
    fn low_u64(self) -> u64 {
        self.0[0]
    }
    #[inline]
    fn from_low_u64(bits: u64) -> Self {
        U256([bits, 0, 0, 0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: Bits>() {
        let mut set = B::EMPTY;
        set.set(3);
        set.set(B::CAPACITY - 1);
        assert_eq!(set.count(), 2);
        assert_eq!(set.lowest(), 3);
        assert_eq!(set.highest(), B::CAPACITY - 1);
        assert!(set.more_than_one());
        assert_eq!(set.squares().collect::<Vec<_>>(), vec![3, B::CAPACITY - 1]);
        set.clear(3);
        assert!(!set.has(3) && set.has(B::CAPACITY - 1));
        assert!(!set.more_than_one());
    }

    #[test]
    fn all_widths_behave_alike() {
        exercise::<u64>();
        exercise::<u128>();
        exercise::<U256>();
    }
}
