import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export class CreateTokenDto {
  @IsString() @Length(1, 100) name!: string;
  @IsOptional() @IsInt() @Min(1) @Max(3650) expires_in_days?: number;
}
