import { path } from '../../../shared/path';
import { listOperation } from '../listOperation';

const op = listOperation('client', path`/v1/clients`, 'clients');
export const { description, execute, kind, narrow } = op;
