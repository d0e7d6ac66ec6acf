//! The language: a variant's source text parsed (`syntax`), checked and
//! lowered to the rules IR (`check`), files composed with `extends` and
//! options (`load`), and the variants shipped in the binary (`variants`).

pub mod check;
pub mod load;
pub mod syntax;
pub mod variants;
