import { listOperation } from '../listOperation';

const op = listOperation('subscription', '/v1/subscriptions', 'subscriptions');
export const { description, execute, kind } = op;
