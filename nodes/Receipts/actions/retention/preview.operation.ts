import { previewOperation } from '../common/operations';
import { retentionSpec } from './fields';

/** Preview: the body Issue would send for a retention, with its warnings or problems; nothing is sent. */
export const { description, execute } = previewOperation(retentionSpec);
