/** A LaTeX statement refused: its structure cannot be read, or it is past one of the converter's limits. The message is the reason. */
export class LatexStatementError extends Error {}
