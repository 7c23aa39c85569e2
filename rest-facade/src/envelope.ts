import type { Response } from 'express';
import type { ApiError } from './errors';

/** The success envelope around `data`: the bytes and headers res.json would send (sendSuccessJson). */
export function sendSuccess(res: Response, data: unknown, status = 200): void {
  sendSuccessJson(res, JSON.stringify(data) ?? 'null', status);
}

/**
 * The success envelope around `data` already serialized (as a cached answer is): the bytes and
 * headers res.json would send, written with Node's own calls (Express's send would parse the
 * content type it was just given and check freshness on a response that has no validators). A
 * HEAD gets the headers alone (Node drops the body).
 */
export function sendSuccessJson(res: Response, dataJson: string, status = 200): void {
  const body = `{"success":true,"data":${dataJson},"timestamp":"${new Date().toISOString()}"}`;
  res.statusCode = status;
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
