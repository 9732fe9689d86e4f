// Text → the character sequence that fingerprints are taken over (docs/rules/submissions.md#similarity).

/**
 * Unicode NFC (so a decomposed Hangul syllable equals its precomposed form), case folded, with
 * every whitespace, punctuation and symbol character removed: only letters, marks and digits stay.
 * Dropping spaces makes Korean spacing variants and English line wrapping compare equal, and lets
 * character k-grams work the same for both scripts (no word segmenter needed).
 */
export function normaliseText(text: string): string {
  return text
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, "");
}
