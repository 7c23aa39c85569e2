import { AppError } from '../../../common/platform/errors';

export const tooManyGoals = (limit: number) =>
  new AppError('goal_limit_reached', `A website may have at most ${limit} goals`, 409);
