import type { Response } from 'express';
import type { ApiError } from './api-error';

export function sendSuccess(res: Response, data: unknown, status = 200): void {
  res.status(status).json({ success: true, data, timestamp: new Date().toISOString() });
}

/**
 * The same envelope around `data` already serialized (a cached answer): the bytes and headers
 * res.json would send, without parsing and serializing the data again, and written with Node's
 * own calls (Express's send would parse the content type it was just given and check freshness
 * on a response that has no validators). A HEAD gets the headers alone (Node drops the body).
 */
export function sendSuccessJson(res: Response, dataJson: string): void {
  const body = `{"success":true,"data":${dataJson},"timestamp":"${new Date().toISOString()}"}`;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

export function errorBody(error: ApiError): Record<string, unknown> {
  const detail = error.details === undefined ? {} : { details: error.details };
  if (error.shape === 'auth') return { error: { code: error.code, message: error.message } };
  return {
    success: false,
    error: {
      code: error.code,
      message: error.message,
      timestamp: new Date().toISOString(),
      ...detail,
    },
  };
}
