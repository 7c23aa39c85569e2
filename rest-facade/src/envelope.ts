import type { Response } from 'express';
import type { ApiError } from './api-error';

export function sendSuccess(res: Response, data: unknown, status = 200): void {
  res.status(status).json({ success: true, data, timestamp: new Date().toISOString() });
}

/**
 * The same envelope around `data` already serialized (a cached answer): the bytes res.json would
 * send, without parsing and serializing the data again.
 */
export function sendSuccessJson(res: Response, dataJson: string): void {
  res
    .status(200)
    .type('json')
    .send(`{"success":true,"data":${dataJson},"timestamp":"${new Date().toISOString()}"}`);
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
