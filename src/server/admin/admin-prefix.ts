/**
 * @module admin/admin-prefix
 * Where the control endpoints live: the request log keeps calls here out of the API journal.
 */
export const ADMIN_PREFIX = '/__mock';
