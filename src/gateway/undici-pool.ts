// undici's Pool, from undici's index in node_modules, not bundled: Bolt loads that same index at start
// (@slack/socket-mode requires it, even in HTTP mode), so importing it here costs nothing more, where a bundled
// copy was a second undici compiled, evaluated and kept in memory (about 370 KB of main.js).
import { Pool as UndiciPool } from 'undici';

export const Pool = UndiciPool;
export type Pool = UndiciPool;
