/**
 * Route patterns of the External API as the call log records them, offered as suggestions for
 * the endpoint filter (any other value can still be typed).
 */
const BASE = '/api/external/v1';

export const ENDPOINT_PATTERNS = [
  '/websites',
  '/websites/:websiteId',
  '/analytics/:websiteId',
  '/analytics/:websiteId/visitors',
  '/analytics/:websiteId/countries',
  '/analytics/:websiteId/pages',
  '/analytics/:websiteId/sources',
  '/analytics/:websiteId/technology',
  '/heatmaps/:websiteId/pages',
  '/replays/:websiteId/sessions',
  '/errors/:websiteId/groups',
  '/query/:websiteId',
  '/usage',
].map((pattern) => `${BASE}${pattern}`);
