// The lexical index's header, one per handle (lexical.ts), 80 bytes:
//
//   +0  terms u32       +4  terms log2     +8  used           +12 lens u32
//   +16 lens log2       +20 live           +24 total (u64)
//   +32 prevs u32       +36 nexts u32      +40 segs u32       +44 segtab u32
//   +48 segtab log2     +52 segLive        +56 links (u64)    +64 segTotal (u64)   +72 spare
//
// lexical.ts draws the term table, postings and lengths; lexical-place.ts the links and segments.

export const HEADER_BYTES: usize = 80;
export const L_TERMS: usize = 0;
export const L_TERMS_LOG2: usize = 4;
export const L_USED: usize = 8;
export const L_LENS: usize = 12;
export const L_LENS_LOG2: usize = 16;
export const L_LIVE: usize = 20;
export const L_TOTAL: usize = 24;
export const L_PREVS: usize = 32;
export const L_NEXTS: usize = 36;
export const L_SEGS: usize = 40;
export const L_SEGTAB: usize = 44;
export const L_SEGTAB_LOG2: usize = 48;
export const L_SEG_LIVE: usize = 52;
export const L_LINKS: usize = 56;
export const L_SEG_TOTAL: usize = 64;
