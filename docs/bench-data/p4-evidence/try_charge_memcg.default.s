ffffffff811e0d30 <try_charge_memcg>:
ffffffff811e0d30:	push   %r15
ffffffff811e0d32:	push   %r14
ffffffff811e0d34:	push   %r13
ffffffff811e0d36:	mov    $0x40,%r13d
ffffffff811e0d3c:	push   %r12
ffffffff811e0d3e:	push   %rbp
ffffffff811e0d3f:	mov    %edx,%ebp
ffffffff811e0d41:	push   %rbx
ffffffff811e0d42:	mov    %rdi,%rbx
ffffffff811e0d45:	sub    $0x30,%rsp
ffffffff811e0d49:	cmp    %r13d,%ebp
ffffffff811e0d4c:	cmovae %ebp,%r13d
ffffffff811e0d50:	xor    %edx,%edx
ffffffff811e0d52:	xor    %r12d,%r12d
ffffffff811e0d55:	xor    %r15d,%r15d
ffffffff811e0d58:	mov    %esi,0x4(%rsp)
ffffffff811e0d5c:	xor    %r14d,%r14d
ffffffff811e0d5f:	mov    %rdx,0x20(%rsp)
ffffffff811e0d64:	mov    %rdx,0x28(%rsp)
ffffffff811e0d69:	movl   $0x2,0x14(%rsp)
ffffffff811e0d71:	movl   $0x10,0x10(%rsp)
ffffffff811e0d79:	cmp    $0x40,%ebp
ffffffff811e0d7c:	ja     ffffffff811e0dce <try_charge_memcg+0x9e>
ffffffff811e0d7e:	pushf
ffffffff811e0d7f:	pop    %rax
ffffffff811e0d80:	cli
ffffffff811e0d81:	mov    %gs:0x7ee3442f(%rip),%rsi        # 151b8 <this_cpu_off>
ffffffff811e0d89:	mov    0x2a868(%rsi),%edx
ffffffff811e0d8f:	lea    0x2a860(%rsi),%rcx
ffffffff811e0d96:	mov    0x2a860(%rsi),%rsi
ffffffff811e0d9d:	cmp    %rsi,%rbx
ffffffff811e0da0:	jne    ffffffff811e0dc7 <try_charge_memcg+0x97>
ffffffff811e0da2:	and    $0x200,%eax
ffffffff811e0da7:	cmp    %ebp,%edx
ffffffff811e0da9:	jb     ffffffff811e0dc0 <try_charge_memcg+0x90>
ffffffff811e0dab:	sub    %ebp,%edx
ffffffff811e0dad:	mov    %edx,0x8(%rcx)
ffffffff811e0db0:	test   %rax,%rax
ffffffff811e0db3:	jne    ffffffff811e0dbd <try_charge_memcg+0x8d>
ffffffff811e0db5:	xor    %r13d,%r13d
ffffffff811e0db8:	jmp    ffffffff811e1127 <try_charge_memcg+0x3f7>
ffffffff811e0dbd:	sti
ffffffff811e0dbe:	jmp    ffffffff811e0db5 <try_charge_memcg+0x85>
ffffffff811e0dc0:	test   %rax,%rax
ffffffff811e0dc3:	je     ffffffff811e0dce <try_charge_memcg+0x9e>
ffffffff811e0dc5:	jmp    ffffffff811e0dcd <try_charge_memcg+0x9d>
ffffffff811e0dc7:	bt     $0x9,%eax
ffffffff811e0dcb:	jae    ffffffff811e0dce <try_charge_memcg+0x9e>
ffffffff811e0dcd:	sti
ffffffff811e0dce:	call   ffffffff811ddb16 <do_memsw_account>
ffffffff811e0dd3:	mov    %r13d,%ecx
ffffffff811e0dd6:	mov    %rcx,0x8(%rsp)
ffffffff811e0ddb:	test   %al,%al
ffffffff811e0ddd:	jne    ffffffff811e0df9 <try_charge_memcg+0xc9>
ffffffff811e0ddf:	lea    0x100(%rbx),%rdi
ffffffff811e0de6:	lea    0x20(%rsp),%rdx
ffffffff811e0deb:	mov    %r13d,%esi
ffffffff811e0dee:	call   ffffffff811dd48c <page_counter_try_charge>
ffffffff811e0df3:	test   %al,%al
ffffffff811e0df5:	je     ffffffff811e0e44 <try_charge_memcg+0x114>
ffffffff811e0df7:	jmp    ffffffff811e0e29 <try_charge_memcg+0xf9>
ffffffff811e0df9:	lea    0x200(%rbx),%rdi
ffffffff811e0e00:	lea    0x20(%rsp),%rdx
ffffffff811e0e05:	mov    %r13d,%esi
ffffffff811e0e08:	call   ffffffff811dd48c <page_counter_try_charge>
ffffffff811e0e0d:	test   %al,%al
ffffffff811e0e0f:	jne    ffffffff811e0ddf <try_charge_memcg+0xaf>
ffffffff811e0e11:	mov    0x20(%rsp),%rax
ffffffff811e0e16:	sub    $0x200,%rax
ffffffff811e0e1c:	mov    %rax,0x8(%rsp)
ffffffff811e0e21:	xor    %eax,%eax
ffffffff811e0e23:	mov    %eax,0x14(%rsp)
ffffffff811e0e27:	jmp    ffffffff811e0e6c <try_charge_memcg+0x13c>
ffffffff811e0e29:	cmp    %r13d,%ebp
ffffffff811e0e2c:	jae    ffffffff811e104e <try_charge_memcg+0x31e>
ffffffff811e0e32:	mov    %r13d,%esi
ffffffff811e0e35:	mov    %rbx,%rdi
ffffffff811e0e38:	sub    %ebp,%esi
ffffffff811e0e3a:	call   ffffffff811de834 <refill_stock>
ffffffff811e0e3f:	jmp    ffffffff811e104e <try_charge_memcg+0x31e>
ffffffff811e0e44:	call   ffffffff811ddb16 <do_memsw_account>
ffffffff811e0e49:	test   %al,%al
ffffffff811e0e4b:	je     ffffffff811e0e5c <try_charge_memcg+0x12c>
ffffffff811e0e4d:	lea    0x200(%rbx),%rdi
ffffffff811e0e54:	mov    %r13d,%esi
ffffffff811e0e57:	call   ffffffff811dd525 <page_counter_uncharge>
ffffffff811e0e5c:	mov    0x20(%rsp),%rax
ffffffff811e0e61:	sub    $0x100,%rax
ffffffff811e0e67:	mov    %rax,0x8(%rsp)
ffffffff811e0e6c:	cmp    %r13d,%ebp
ffffffff811e0e6f:	jae    ffffffff811e0e79 <try_charge_memcg+0x149>
ffffffff811e0e71:	mov    %ebp,%r13d
ffffffff811e0e74:	jmp    ffffffff811e0d79 <try_charge_memcg+0x49>
ffffffff811e0e79:	mov    %gs:0x7ee4b3ff(%rip),%rax        # 2c280 <pcpu_hot>
ffffffff811e0e81:	testb  $0x8,0x2d(%rax)
ffffffff811e0e85:	jne    ffffffff811e1007 <try_charge_memcg+0x2d7>
ffffffff811e0e8b:	btl    $0xa,0x4(%rsp)
ffffffff811e0e91:	jae    ffffffff811e0ff7 <try_charge_memcg+0x2c7>
ffffffff811e0e97:	mov    0x628(%rax),%rax
ffffffff811e0e9e:	mov    0x368(%rax),%rax
ffffffff811e0ea5:	test   %rax,%rax
ffffffff811e0ea8:	je     ffffffff811e0ebb <try_charge_memcg+0x18b>
ffffffff811e0eaa:	mov    0x418(%rax),%rax
ffffffff811e0eb1:	bt     $0x15,%eax
ffffffff811e0eb5:	jb     ffffffff811e0ff7 <try_charge_memcg+0x2c7>
ffffffff811e0ebb:	mov    0x8(%rsp),%rdi
ffffffff811e0ec0:	mov    $0x2,%esi
ffffffff811e0ec5:	call   ffffffff811de28b <memcg_memory_event>
ffffffff811e0eca:	lea    0x28(%rsp),%rdi
ffffffff811e0ecf:	call   ffffffff8108871f <psi_memstall_enter>
ffffffff811e0ed4:	mov    0x14(%rsp),%ecx
ffffffff811e0ed8:	mov    0x4(%rsp),%edx
ffffffff811e0edc:	mov    %ebp,%eax
ffffffff811e0ede:	mov    0x8(%rsp),%rdi
ffffffff811e0ee3:	xor    %r8d,%r8d
ffffffff811e0ee6:	mov    %ebp,%esi
ffffffff811e0ee8:	mov    %rax,0x18(%rsp)
ffffffff811e0eed:	call   ffffffff81183458 <try_to_free_mem_cgroup_pages>
ffffffff811e0ef2:	lea    0x28(%rsp),%rdi
ffffffff811e0ef7:	mov    %rax,%r12
ffffffff811e0efa:	call   ffffffff81088781 <psi_memstall_leave>
ffffffff811e0eff:	mov    0x8(%rsp),%rdi
ffffffff811e0f04:	call   ffffffff811ddb22 <mem_cgroup_margin>
ffffffff811e0f09:	mov    %ebp,%ecx
ffffffff811e0f0b:	cmp    %rcx,%rax
ffffffff811e0f0e:	jb     ffffffff811e0f18 <try_charge_memcg+0x1e8>
ffffffff811e0f10:	mov    $0x1,%r12b
ffffffff811e0f13:	jmp    ffffffff811e0d79 <try_charge_memcg+0x49>
ffffffff811e0f18:	test   %r15b,%r15b
ffffffff811e0f1b:	jne    ffffffff811e0f32 <try_charge_memcg+0x202>
ffffffff811e0f1d:	mov    0x8(%rsp),%rdi
ffffffff811e0f22:	mov    $0x1,%r12b
ffffffff811e0f25:	mov    $0x1,%r15b
ffffffff811e0f28:	call   ffffffff811e0848 <drain_all_stock>
ffffffff811e0f2d:	jmp    ffffffff811e0d79 <try_charge_memcg+0x49>
ffffffff811e0f32:	btl    $0x10,0x4(%rsp)
ffffffff811e0f38:	jae    ffffffff811e0f56 <try_charge_memcg+0x226>
ffffffff811e0f3a:	mov    $0xfffffff4,%r13d
ffffffff811e0f40:	mov    %r15d,%r12d
ffffffff811e0f43:	testl  $0x8020,0x4(%rsp)
ffffffff811e0f4b:	jne    ffffffff811e1007 <try_charge_memcg+0x2d7>
ffffffff811e0f51:	jmp    ffffffff811e1127 <try_charge_memcg+0x3f7>
ffffffff811e0f56:	test   %r12,%r12
ffffffff811e0f59:	setne  %r12b
ffffffff811e0f5d:	cmp    $0x8,%ebp
ffffffff811e0f60:	setbe  %al
ffffffff811e0f63:	and    %al,%r12b
ffffffff811e0f66:	je     ffffffff811e0f70 <try_charge_memcg+0x240>
ffffffff811e0f68:	mov    %r12d,%r15d
ffffffff811e0f6b:	jmp    ffffffff811e0d79 <try_charge_memcg+0x49>
ffffffff811e0f70:	cmpl   $0x0,0x10(%rsp)
ffffffff811e0f75:	je     ffffffff811e0f83 <try_charge_memcg+0x253>
ffffffff811e0f77:	decl   0x10(%rsp)
ffffffff811e0f7b:	mov    %r15d,%r12d
ffffffff811e0f7e:	jmp    ffffffff811e0d79 <try_charge_memcg+0x49>
ffffffff811e0f83:	btl    $0xe,0x4(%rsp)
ffffffff811e0f89:	jb     ffffffff811e0f3a <try_charge_memcg+0x20a>
ffffffff811e0f8b:	test   %r14b,%r14b
ffffffff811e0f8e:	jne    ffffffff811e0fb3 <try_charge_memcg+0x283>
ffffffff811e0f90:	mov    0x18(%rsp),%rax
ffffffff811e0f95:	or     $0xffffffff,%edx
ffffffff811e0f98:	shl    $0xc,%rax
ffffffff811e0f9c:	dec    %rax
ffffffff811e0f9f:	shr    $0xc,%rax
ffffffff811e0fa3:	bsr    %rax,%rdx
ffffffff811e0fa7:	lea    0x1(%rdx),%r12d
ffffffff811e0fab:	cmp    $0x3,%r12d
ffffffff811e0faf:	jg     ffffffff811e0f3a <try_charge_memcg+0x20a>
ffffffff811e0fb1:	jmp    ffffffff811e0fc1 <try_charge_memcg+0x291>
ffffffff811e0fb3:	call   ffffffff811df05e <task_is_dying>
ffffffff811e0fb8:	test   %al,%al
ffffffff811e0fba:	je     ffffffff811e0f90 <try_charge_memcg+0x260>
ffffffff811e0fbc:	jmp    ffffffff811e0f3a <try_charge_memcg+0x20a>
ffffffff811e0fc1:	mov    0x8(%rsp),%rdi
ffffffff811e0fc6:	mov    $0x3,%esi
ffffffff811e0fcb:	call   ffffffff811de28b <memcg_memory_event>
ffffffff811e0fd0:	mov    0x4(%rsp),%esi
ffffffff811e0fd4:	mov    0x8(%rsp),%rdi
ffffffff811e0fd9:	mov    %r12d,%edx
ffffffff811e0fdc:	call   ffffffff811df0a0 <mem_cgroup_out_of_memory>
ffffffff811e0fe1:	mov    %eax,%r14d
ffffffff811e0fe4:	test   %al,%al
ffffffff811e0fe6:	je     ffffffff811e0f3a <try_charge_memcg+0x20a>
ffffffff811e0fec:	mov    %r14d,%r12d
ffffffff811e0fef:	mov    %r14d,%r15d
ffffffff811e0ff2:	jmp    ffffffff811e0d71 <try_charge_memcg+0x41>
ffffffff811e0ff7:	mov    $0xfffffff4,%r13d
ffffffff811e0ffd:	testl  $0x8020,0x4(%rsp)
ffffffff811e1005:	je     ffffffff811e1031 <try_charge_memcg+0x301>
ffffffff811e1007:	lea    0x100(%rbx),%rdi
ffffffff811e100e:	mov    %rbp,%rsi
ffffffff811e1011:	call   ffffffff811dd441 <page_counter_charge>
ffffffff811e1016:	call   ffffffff811ddb16 <do_memsw_account>
ffffffff811e101b:	test   %al,%al
ffffffff811e101d:	je     ffffffff811e102e <try_charge_memcg+0x2fe>
ffffffff811e101f:	lea    0x200(%rbx),%rdi
ffffffff811e1026:	mov    %rbp,%rsi
ffffffff811e1029:	call   ffffffff811dd441 <page_counter_charge>
ffffffff811e102e:	xor    %r13d,%r13d
ffffffff811e1031:	test   %r12b,%r12b
ffffffff811e1034:	jne    ffffffff811e1127 <try_charge_memcg+0x3f7>
ffffffff811e103a:	mov    0x8(%rsp),%rdi
ffffffff811e103f:	mov    $0x2,%esi
ffffffff811e1044:	call   ffffffff811de28b <memcg_memory_event>
ffffffff811e1049:	jmp    ffffffff811e1127 <try_charge_memcg+0x3f7>
ffffffff811e104e:	mov    0xef6500(%rip),%eax        # ffffffff820d7554 <memcg_bpf_ops_enabled>
ffffffff811e1054:	test   %eax,%eax
ffffffff811e1056:	jle    ffffffff811e106f <try_charge_memcg+0x33f>
ffffffff811e1058:	mov    0x6a0(%rbx),%rax
ffffffff811e105f:	test   %rax,%rax
ffffffff811e1062:	je     ffffffff811e106f <try_charge_memcg+0x33f>
ffffffff811e1064:	mov    %r13d,%esi
ffffffff811e1067:	mov    %rbx,%rdi
ffffffff811e106a:	call   ffffffff811e2f05 <__memcg_bpf_note_charge>
ffffffff811e106f:	mov    %gs:0x7ee4b212(%rip),%eax        # 2c288 <pcpu_hot+0x8>
ffffffff811e1076:	and    $0xff0100,%eax
ffffffff811e107b:	mov    0x100(%rbx),%rdx
ffffffff811e1082:	mov    0x1d8(%rbx),%rcx
ffffffff811e1089:	mov    0x200(%rbx),%rsi
ffffffff811e1090:	mov    0x2d8(%rbx),%rdi
ffffffff811e1097:	test   %eax,%eax
ffffffff811e1099:	je     ffffffff811e10ba <try_charge_memcg+0x38a>
ffffffff811e109b:	cmp    %rdx,%rcx
ffffffff811e109e:	jae    ffffffff811e10e2 <try_charge_memcg+0x3b2>
ffffffff811e10a0:	mov    0x878b91(%rip),%rsi        # ffffffff81a59c38 <system_percpu_wq>
ffffffff811e10a7:	lea    0x328(%rbx),%rdx
ffffffff811e10ae:	mov    $0x8,%edi
ffffffff811e10b3:	call   ffffffff8105e516 <queue_work_on>
ffffffff811e10b8:	jmp    ffffffff811e10ee <try_charge_memcg+0x3be>
ffffffff811e10ba:	cmp    %rdx,%rcx
ffffffff811e10bd:	jb     ffffffff811e10c4 <try_charge_memcg+0x394>
ffffffff811e10bf:	cmp    %rsi,%rdi
ffffffff811e10c2:	jae    ffffffff811e10e2 <try_charge_memcg+0x3b2>
ffffffff811e10c4:	mov    %gs:0x7ee4b1b4(%rip),%rdi        # 2c280 <pcpu_hot>
ffffffff811e10cc:	add    %r13d,0x900(%rdi)
ffffffff811e10d3:	lock btsq $0x1,(%rdi)
ffffffff811e10d9:	jb     ffffffff811e10ee <try_charge_memcg+0x3be>
ffffffff811e10db:	call   ffffffff8106e503 <kick_process>
ffffffff811e10e0:	jmp    ffffffff811e10ee <try_charge_memcg+0x3be>
ffffffff811e10e2:	mov    0xc0(%rbx),%rbx
ffffffff811e10e9:	test   %rbx,%rbx
ffffffff811e10ec:	jne    ffffffff811e107b <try_charge_memcg+0x34b>
ffffffff811e10ee:	mov    %gs:0x7ee4b18a(%rip),%rax        # 2c280 <pcpu_hot>
ffffffff811e10f6:	cmpl   $0x40,0x900(%rax)
ffffffff811e10fd:	jbe    ffffffff811e0db5 <try_charge_memcg+0x85>
ffffffff811e1103:	testb  $0x8,0x2d(%rax)
ffffffff811e1107:	jne    ffffffff811e0db5 <try_charge_memcg+0x85>
ffffffff811e110d:	btl    $0xa,0x4(%rsp)
ffffffff811e1113:	jae    ffffffff811e0db5 <try_charge_memcg+0x85>
ffffffff811e1119:	mov    0x4(%rsp),%edi
ffffffff811e111d:	call   ffffffff811e0b4c <__mem_cgroup_handle_over_high>
ffffffff811e1122:	jmp    ffffffff811e0db5 <try_charge_memcg+0x85>
ffffffff811e1127:	add    $0x30,%rsp
ffffffff811e112b:	mov    %r13d,%eax
ffffffff811e112e:	pop    %rbx
ffffffff811e112f:	pop    %rbp
ffffffff811e1130:	pop    %r12
ffffffff811e1132:	pop    %r13
ffffffff811e1134:	pop    %r14
ffffffff811e1136:	pop    %r15
ffffffff811e1138:	ret

