/** The PTY sizes every transport accepts: a pane's columns and rows. */
import { z } from 'zod';

export const TerminalCols = z.number().int().min(2).max(1000);
export const TerminalRows = z.number().int().min(1).max(500);
