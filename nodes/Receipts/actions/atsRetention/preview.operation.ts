import { previewOperation } from '../common/operations';
import { atsRetentionSpec } from './fields';

/** Preview: the body Issue would send for an ATS retention, with its warnings or problems; nothing is sent. */
export const { description, execute } = previewOperation(atsRetentionSpec);
