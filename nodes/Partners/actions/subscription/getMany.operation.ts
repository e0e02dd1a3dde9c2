import { path } from '../../../shared/path';
import { listOperation } from '../listOperation';

const op = listOperation('subscription', path`/v1/subscriptions`, 'subscriptions');
export const { description, execute, kind, narrow } = op;
