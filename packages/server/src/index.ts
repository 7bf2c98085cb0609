export { startApp, packageVersion, NotInitialised, type JudgeApp, type AppOptions } from './app.js';
export { loadConfig, settingsTable, ConfigError, type Config, type ConfigOverrides } from './config.js';
export { initDataDir } from './init.js';
export { DataDirInUse, lockDataDir, isInitialised } from './datadir.js';
export type { Clock } from './util.js';
