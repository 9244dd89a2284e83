/** `s` cut to at most `max` characters, an ellipsis marking the cut; null stays null. */
export const truncate = (s: string | null, max: number): string | null => (s === null || s.length <= max ? s : `${s.slice(0, max - 1)}…`);
