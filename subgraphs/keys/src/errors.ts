import { AppError } from '../../../common/platform/errors';

export const tooManyGoals = (limit: number) =>
  new AppError({
    code: 'goal_limit_reached',
    message: `A website may have at most ${limit} goals`,
    status: 409,
  });
