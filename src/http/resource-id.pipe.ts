import { Injectable, type PipeTransform } from '@nestjs/common';
import { NotFoundError } from '../errors/domain-errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is not a UUID names nothing this service made: it is answered like any unknown id. */
@Injectable()
export class ResourceIdPipe implements PipeTransform<string, string> {
  constructor(private readonly resource: string) {}

  transform(value: string): string {
    if (!UUID.test(value)) throw new NotFoundError(this.resource);
    return value.toLowerCase();
  }
}
