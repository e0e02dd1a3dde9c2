import { listOperation } from '../listOperation';

const op = listOperation('client', '/v1/clients', 'clients');
export const { description, execute, kind } = op;
