/** User accounts, and the lookups other areas make of them. */
export { UsersService, announceUser, missingOver } from './service.js';
export { usersRoutes } from './routes.js';
export { displayName, emailKey, emailTaken, findUserById, findUserByLogin, freeUsername, loginStem, usernameKey, usernameTaken, type UserRow } from './queries.js';
