/** The report texts, registered by language (en, fr, nl); every language implements the same `Messages`. */
import type { ReportLang } from '../../report-types.js';
import { en, type Messages } from './en.js';
import { fr } from './fr.js';
import { nl } from './nl.js';

/** The shape of one language's texts, and the pollutant symbols every language prints. */
export { POLLUTANT_SYMBOLS, type Messages } from './en.js';

/** The texts of every report language. */
export const MESSAGES: Readonly<Record<ReportLang, Messages>> = { en, fr, nl };
