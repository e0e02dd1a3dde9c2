import { reissueOperation } from '../common/operations';
import { retentionSpec } from './fields';

/** POST /retentions/{id}/reissue (the service's public documentation, Comprobantes de Retención). */
export const { kind, description, validate, execute } = reissueOperation(retentionSpec);
