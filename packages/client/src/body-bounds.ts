/**
 * The bounds of each request body's fields (required, lengths, ranges, patterns, list sizes), as
 * the OpenAPI document the API serves states them, generated for the web app's forms to check
 * before sending (docs/web.md, "Forms"). Do not edit: run `pnpm --filter @uptime/client generate`.
 * A test fails when this file differs from what the document gives.
 */

/** A field's bounds; `items` those of each item of a list, `properties` those of an object's fields. */
export interface FieldBounds {
  readonly required?: true;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly pattern?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly items?: FieldBounds;
  readonly properties?: { readonly [field: string]: FieldBounds };
}

/** Request body schema name → field → its bounds. */
export const BODY_BOUNDS = {
  "AgentCreate": {
    "name": {
      "required": true,
      "minLength": 1,
      "maxLength": 100
    },
    "location": {
      "required": true,
      "minLength": 1,
      "maxLength": 64
    },
    "url": {
      "required": true,
      "maxLength": 2048,
      "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^\\s?#@]+$"
    },
    "is_public": {}
  },
  "AgentIds": {
    "agent_ids": {
      "required": true,
      "minItems": 1,
      "maxItems": 100,
      "items": {
        "minimum": 1,
        "maximum": 2147483647
      }
    }
  },
  "AgentStatusUpdate": {
    "status": {
      "required": true
    }
  },
  "AgentUpdate": {
    "name": {
      "minLength": 1,
      "maxLength": 100
    },
    "location": {
      "minLength": 1,
      "maxLength": 64
    },
    "url": {
      "maxLength": 2048,
      "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^\\s?#@]+$"
    },
    "is_public": {}
  },
  "AlertSettingsUpdate": {
    "email_enabled": {},
    "email_recipients": {
      "maxItems": 20,
      "items": {
        "maxLength": 320
      }
    },
    "slack_enabled": {},
    "slack_webhook_url": {
      "maxLength": 2048,
      "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://\\S+$"
    },
    "webhook_enabled": {},
    "webhook_url": {
      "maxLength": 2048,
      "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://\\S+$"
    },
    "channel_ids": {
      "maxItems": 50,
      "items": {
        "minimum": 1,
        "maximum": 2147483647
      }
    },
    "alert_on_recovery": {},
    "alert_threshold": {
      "minimum": 1,
      "maximum": 100
    },
    "alert_on_slow": {},
    "certificate_expiry_days": {
      "minimum": 0,
      "maximum": 365
    },
    "reminder_interval_minutes": {
      "minimum": 5,
      "maximum": 1440
    },
    "escalation_recipients": {
      "maxItems": 20,
      "items": {
        "maxLength": 320
      }
    },
    "escalation_channel_ids": {
      "maxItems": 50,
      "items": {
        "minimum": 1,
        "maximum": 2147483647
      }
    },
    "escalation_after_minutes": {
      "minimum": 5,
      "maximum": 1440
    }
  },
  "BulkCreateRequest": {
    "monitors": {
      "required": true,
      "minItems": 1,
      "maxItems": 100
    }
  },
  "BulkRequest": {
    "action": {
      "required": true
    },
    "monitor_ids": {
      "required": true,
      "minItems": 1,
      "maxItems": 100,
      "items": {
        "minimum": 1,
        "maximum": 2147483647
      }
    },
    "reason": {
      "maxLength": 500
    },
    "settings": {}
  },
  "BulkUpdateRequest": {
    "updates": {
      "required": true,
      "minItems": 1,
      "maxItems": 100,
      "items": {
        "properties": {
          "id": {
            "required": true,
            "minimum": 1,
            "maximum": 2147483647
          },
          "settings": {
            "required": true
          }
        }
      }
    }
  },
  "ChannelCreate": {
    "name": {
      "required": true,
      "minLength": 1,
      "maxLength": 100
    },
    "type": {
      "required": true
    },
    "config": {
      "required": true
    },
    "is_default": {},
    "key": {
      "minLength": 1,
      "maxLength": 100,
      "pattern": "^[a-z0-9][a-z0-9_.-]{0,99}$"
    },
    "managed_by": {},
    "config_fingerprints": {}
  },
  "ChannelUpdate": {
    "name": {
      "minLength": 1,
      "maxLength": 100
    },
    "config": {},
    "is_default": {},
    "apply_to_all_monitors": {},
    "key": {
      "minLength": 1,
      "maxLength": 100,
      "pattern": "^[a-z0-9][a-z0-9_.-]{0,99}$"
    },
    "managed_by": {},
    "config_fingerprints": {}
  },
  "IncidentCreate": {
    "status": {},
    "message": {
      "required": true,
      "minLength": 1,
      "maxLength": 10000
    },
    "title": {
      "required": true,
      "minLength": 1,
      "maxLength": 200
    },
    "impact": {
      "required": true
    },
    "monitor_ids": {
      "maxItems": 100,
      "items": {
        "minimum": 1,
        "maximum": 2147483647
      }
    },
    "started_at": {
      "maxLength": 40
    },
    "published": {}
  },
  "IncidentPatch": {
    "title": {
      "minLength": 1,
      "maxLength": 200
    },
    "impact": {},
    "monitor_ids": {
      "maxItems": 100,
      "items": {
        "minimum": 1,
        "maximum": 2147483647
      }
    },
    "started_at": {
      "maxLength": 40
    },
    "published": {}
  },
  "IncidentUpdateCreate": {
    "status": {
      "required": true
    },
    "message": {
      "required": true,
      "minLength": 1,
      "maxLength": 10000
    }
  },
  "InvitationAccept": {
    "token": {
      "required": true,
      "minLength": 1,
      "maxLength": 200
    }
  },
  "InvitationCreate": {
    "email": {
      "required": true,
      "maxLength": 320
    },
    "role": {
      "required": true
    }
  },
  "MaintenanceWindowCreate": {
    "name": {
      "required": true,
      "minLength": 1,
      "maxLength": 200
    },
    "monitor_ids": {
      "required": true,
      "minItems": 1,
      "maxItems": 100,
      "items": {
        "minimum": 1,
        "maximum": 2147483647
      }
    },
    "starts_at": {
      "required": true,
      "maxLength": 40
    },
    "duration_minutes": {
      "required": true,
      "minimum": 1,
      "maximum": 10080
    },
    "repeat": {
      "required": true
    },
    "weekdays": {
      "maxItems": 7,
      "items": {
        "minimum": 1,
        "maximum": 7
      }
    },
    "timezone": {
      "required": true,
      "maxLength": 64,
      "pattern": "^[A-Za-z][A-Za-z0-9_+\\-/]{0,63}$"
    },
    "key": {
      "minLength": 1,
      "maxLength": 100,
      "pattern": "^[a-z0-9][a-z0-9_.-]{0,99}$"
    },
    "managed_by": {}
  },
  "MaintenanceWindowUpdate": {
    "name": {
      "minLength": 1,
      "maxLength": 200
    },
    "monitor_ids": {
      "minItems": 1,
      "maxItems": 100,
      "items": {
        "minimum": 1,
        "maximum": 2147483647
      }
    },
    "starts_at": {
      "maxLength": 40
    },
    "duration_minutes": {
      "minimum": 1,
      "maximum": 10080
    },
    "repeat": {},
    "weekdays": {
      "maxItems": 7,
      "items": {
        "minimum": 1,
        "maximum": 7
      }
    },
    "timezone": {
      "maxLength": 64,
      "pattern": "^[A-Za-z][A-Za-z0-9_+\\-/]{0,63}$"
    },
    "key": {
      "minLength": 1,
      "maxLength": 100,
      "pattern": "^[a-z0-9][a-z0-9_.-]{0,99}$"
    },
    "managed_by": {}
  },
  "MarkdownPreview": {
    "message": {
      "required": true,
      "minLength": 1,
      "maxLength": 10000
    }
  },
  "MemberUpdate": {
    "role": {},
    "alerts": {}
  },
  "MonitorCreate": {
    "name": {
      "required": true,
      "minLength": 1,
      "maxLength": 200
    },
    "url": {
      "maxLength": 2048,
      "pattern": "^([Hh][Tt][Tt][Pp][Ss]?|[Tt][Cc][Pp]|[Tt][Ll][Ss]|[Dd][Nn][Ss]|[Pp][Ii][Nn][Gg])://\\S+$"
    },
    "type": {
      "required": true
    },
    "method": {},
    "expected_status": {
      "maxItems": 50,
      "items": {
        "minimum": 100,
        "maximum": 599
      }
    },
    "timeout": {
      "minimum": 5,
      "maximum": 300
    },
    "check_interval": {
      "minimum": 1,
      "maximum": 86400
    },
    "retry_count": {
      "minimum": 0,
      "maximum": 10
    },
    "response_time_threshold": {
      "minimum": 1,
      "maximum": 300000
    },
    "recovery_threshold": {
      "minimum": 1,
      "maximum": 100
    },
    "depends_on": {
      "maxItems": 20,
      "items": {
        "minimum": 1,
        "maximum": 2147483647
      }
    },
    "follow_redirects": {},
    "verify_ssl": {},
    "headers": {},
    "body": {
      "maxLength": 65536
    },
    "expected_content": {
      "minLength": 1,
      "maxLength": 1000
    },
    "excluded_content": {
      "minLength": 1,
      "maxLength": 1000
    },
    "json_path": {
      "maxLength": 500,
      "pattern": "^\\$"
    },
    "expected_json_value": {
      "maxLength": 1000
    },
    "locations": {
      "maxItems": 20,
      "items": {
        "minLength": 1,
        "maxLength": 64
      }
    },
    "tags": {
      "maxItems": 20,
      "items": {
        "maxLength": 50,
        "pattern": "^[\\w.:/-]{1,50}$"
      }
    },
    "heartbeat_period": {
      "minimum": 30,
      "maximum": 31536000
    },
    "heartbeat_cron": {
      "minLength": 1,
      "maxLength": 120
    },
    "heartbeat_timezone": {
      "minLength": 1,
      "maxLength": 64
    },
    "heartbeat_grace": {
      "minimum": 30,
      "maximum": 2592000
    },
    "key": {
      "minLength": 1,
      "maxLength": 100,
      "pattern": "^[a-z0-9][a-z0-9_.-]{0,99}$"
    },
    "managed_by": {},
    "ping_count": {
      "minimum": 1,
      "maximum": 10
    },
    "dns_record_type": {},
    "dns_resolver": {
      "maxLength": 261,
      "pattern": "^(\\[[0-9A-Fa-f:.]+\\]|[^\\s:/?#@\\[\\]]+)(:[0-9]{1,5})?$|^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$"
    },
    "dns_protocol": {},
    "expected_dns_values": {
      "maxItems": 50,
      "items": {
        "minLength": 1,
        "maxLength": 255
      }
    },
    "tcp_send": {
      "minLength": 1,
      "maxLength": 1024
    }
  },
  "MonitorUpdate": {
    "name": {
      "minLength": 1,
      "maxLength": 200
    },
    "url": {
      "maxLength": 2048,
      "pattern": "^([Hh][Tt][Tt][Pp][Ss]?|[Tt][Cc][Pp]|[Tt][Ll][Ss]|[Dd][Nn][Ss]|[Pp][Ii][Nn][Gg])://\\S+$"
    },
    "type": {},
    "method": {},
    "expected_status": {
      "maxItems": 50,
      "items": {
        "minimum": 100,
        "maximum": 599
      }
    },
    "timeout": {
      "minimum": 5,
      "maximum": 300
    },
    "check_interval": {
      "minimum": 1,
      "maximum": 86400
    },
    "retry_count": {
      "minimum": 0,
      "maximum": 10
    },
    "response_time_threshold": {
      "minimum": 1,
      "maximum": 300000
    },
    "recovery_threshold": {
      "minimum": 1,
      "maximum": 100
    },
    "depends_on": {
      "maxItems": 20,
      "items": {
        "minimum": 1,
        "maximum": 2147483647
      }
    },
    "follow_redirects": {},
    "verify_ssl": {},
    "headers": {},
    "body": {
      "maxLength": 65536
    },
    "expected_content": {
      "minLength": 1,
      "maxLength": 1000
    },
    "excluded_content": {
      "minLength": 1,
      "maxLength": 1000
    },
    "json_path": {
      "maxLength": 500,
      "pattern": "^\\$"
    },
    "expected_json_value": {
      "maxLength": 1000
    },
    "locations": {
      "maxItems": 20,
      "items": {
        "minLength": 1,
        "maxLength": 64
      }
    },
    "tags": {
      "maxItems": 20,
      "items": {
        "maxLength": 50,
        "pattern": "^[\\w.:/-]{1,50}$"
      }
    },
    "heartbeat_period": {
      "minimum": 30,
      "maximum": 31536000
    },
    "heartbeat_cron": {
      "minLength": 1,
      "maxLength": 120
    },
    "heartbeat_timezone": {
      "minLength": 1,
      "maxLength": 64
    },
    "heartbeat_grace": {
      "minimum": 30,
      "maximum": 2592000
    },
    "key": {
      "minLength": 1,
      "maxLength": 100,
      "pattern": "^[a-z0-9][a-z0-9_.-]{0,99}$"
    },
    "managed_by": {},
    "ping_count": {
      "minimum": 1,
      "maximum": 10
    },
    "dns_record_type": {},
    "dns_resolver": {
      "maxLength": 261,
      "pattern": "^(\\[[0-9A-Fa-f:.]+\\]|[^\\s:/?#@\\[\\]]+)(:[0-9]{1,5})?$|^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$"
    },
    "dns_protocol": {},
    "expected_dns_values": {
      "maxItems": 50,
      "items": {
        "minLength": 1,
        "maxLength": 255
      }
    },
    "tcp_send": {
      "minLength": 1,
      "maxLength": 1024
    }
  },
  "OrganizationCreate": {
    "name": {
      "required": true,
      "minLength": 1,
      "maxLength": 100,
      "pattern": "\\S"
    }
  },
  "OrganizationUpdate": {
    "name": {
      "required": true,
      "minLength": 1,
      "maxLength": 100,
      "pattern": "\\S"
    }
  },
  "PauseRequest": {
    "reason": {
      "maxLength": 500
    }
  },
  "PreferencesUpdate": {
    "timezone": {
      "maxLength": 64,
      "pattern": "^[A-Za-z][A-Za-z0-9_+\\-/]{0,63}$"
    },
    "email_notifications": {},
    "default_check_interval": {
      "minimum": 1,
      "maximum": 86400
    },
    "default_timeout": {
      "minimum": 5,
      "maximum": 300
    },
    "default_locations": {
      "maxItems": 20,
      "items": {
        "minLength": 1,
        "maxLength": 64
      }
    },
    "theme": {}
  },
  "StatusPageCreate": {
    "slug": {
      "required": true,
      "minLength": 3,
      "maxLength": 64,
      "pattern": "^[a-z0-9-]{3,64}$"
    },
    "title": {
      "required": true,
      "minLength": 1,
      "maxLength": 200
    },
    "description": {
      "maxLength": 2000
    },
    "monitor_ids": {
      "required": true,
      "minItems": 1,
      "maxItems": 100,
      "items": {
        "minimum": 1,
        "maximum": 2147483647
      }
    },
    "published": {},
    "auto_incidents": {},
    "sections": {
      "maxItems": 50,
      "items": {
        "properties": {
          "name": {
            "required": true,
            "minLength": 1,
            "maxLength": 100,
            "pattern": "\\S"
          },
          "monitor_ids": {
            "required": true,
            "maxItems": 100,
            "items": {
              "minimum": 1,
              "maximum": 2147483647
            }
          }
        }
      }
    },
    "custom_domain": {
      "maxLength": 253,
      "pattern": "^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$"
    },
    "key": {
      "minLength": 1,
      "maxLength": 100,
      "pattern": "^[a-z0-9][a-z0-9_.-]{0,99}$"
    },
    "managed_by": {}
  },
  "StatusPageSubscribe": {
    "email": {
      "required": true,
      "maxLength": 320
    }
  },
  "StatusPageUpdate": {
    "slug": {
      "minLength": 3,
      "maxLength": 64,
      "pattern": "^[a-z0-9-]{3,64}$"
    },
    "title": {
      "minLength": 1,
      "maxLength": 200
    },
    "description": {
      "maxLength": 2000
    },
    "monitor_ids": {
      "minItems": 1,
      "maxItems": 100,
      "items": {
        "minimum": 1,
        "maximum": 2147483647
      }
    },
    "published": {},
    "auto_incidents": {},
    "sections": {
      "maxItems": 50,
      "items": {
        "properties": {
          "name": {
            "required": true,
            "minLength": 1,
            "maxLength": 100,
            "pattern": "\\S"
          },
          "monitor_ids": {
            "required": true,
            "maxItems": 100,
            "items": {
              "minimum": 1,
              "maximum": 2147483647
            }
          }
        }
      }
    },
    "custom_domain": {
      "maxLength": 253,
      "pattern": "^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$"
    },
    "key": {
      "minLength": 1,
      "maxLength": 100,
      "pattern": "^[a-z0-9][a-z0-9_.-]{0,99}$"
    },
    "managed_by": {}
  },
  "TogglePublishing": {
    "is_public": {}
  },
  "TokenCreate": {
    "name": {
      "required": true,
      "minLength": 1,
      "maxLength": 100
    },
    "expires_in_days": {
      "minimum": 1,
      "maximum": 3650
    },
    "scope": {},
    "organization_id": {
      "minimum": 1,
      "maximum": 2147483647
    }
  }
} as const satisfies { readonly [body: string]: { readonly [field: string]: FieldBounds } };
