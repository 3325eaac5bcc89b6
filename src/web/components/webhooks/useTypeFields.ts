// The fields of the record types a webhook's sources name, read once each (`model/read`): the
// pickers offer the viewer's readable fields by name; the checks use every field of the type.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api';
import type { TypeFields } from '../../record-sources';

/** `fieldsOf(typeId)`: undefined while it loads, null when the viewer cannot read the type. */
export function useTypeFields(typeIds: readonly string[]): (typeId: string) => TypeFields | undefined {
  const [loaded, setLoaded] = useState<ReadonlyMap<string, TypeFields>>(new Map());
  const asked = useRef(new Set<string>());
  const wanted = [...new Set(typeIds.filter(Boolean))].sort().join(',');
  useEffect(() => {
    for (const typeId of wanted ? wanted.split(',') : []) {
      if (asked.current.has(typeId)) continue;
      asked.current.add(typeId);
      void api
        .readType(typeId)
        .then((answer): TypeFields => ({ name: answer.type.name, fields: answer.type.fields }))
        .catch((): TypeFields => null)
        .then((fields) => setLoaded((now) => new Map(now).set(typeId, fields)));
    }
  }, [wanted]);
  return useCallback((typeId: string) => loaded.get(typeId), [loaded]);
}
