/** The collection paths the suites send raw requests to, and build child paths from. */
export const API_KEYS = '/api/cloud/api-keys';
export const ASSISTANTS = '/api/cloud/assistants';
export const TASKS = '/api/cloud/tasks';
export const WORKSPACES = '/api/cloud/workspaces';
