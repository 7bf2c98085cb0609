/** Class lists (the school office's CSV) as judgectl and the web app both read them: no Node modules. */
export { readClassList, requestOf, type ClassList, type ClassListProblem, type ClassListResult, type ImportRow } from './class-list.js';
export { sortAgainst, fullName, spelled, type Existing, type Sorted } from './against-accounts.js';
export { readCsv, parseCsv, decodeCsv, csvField, csvLine, CSV_BOM, CsvSyntaxError, type CsvRecord, type CsvTable } from './csv.js';
export { usernameFor } from './usernames.js';
