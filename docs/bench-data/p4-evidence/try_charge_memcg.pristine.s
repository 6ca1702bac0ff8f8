ffffffff811e0390 <try_charge_memcg>:
ffffffff811e0390:	push   %r15
ffffffff811e0392:	push   %r14
ffffffff811e0394:	push   %r13
ffffffff811e0396:	mov    $0x40,%r13d
ffffffff811e039c:	push   %r12
ffffffff811e039e:	push   %rbp
ffffffff811e039f:	mov    %edx,%ebp
ffffffff811e03a1:	push   %rbx
ffffffff811e03a2:	mov    %rdi,%rbx
ffffffff811e03a5:	sub    $0x30,%rsp
ffffffff811e03a9:	cmp    %r13d,%ebp
ffffffff811e03ac:	cmovae %ebp,%r13d
ffffffff811e03b0:	xor    %edx,%edx
ffffffff811e03b2:	xor    %r12d,%r12d
ffffffff811e03b5:	xor    %r15d,%r15d
ffffffff811e03b8:	mov    %esi,0x4(%rsp)
ffffffff811e03bc:	xor    %r14d,%r14d
ffffffff811e03bf:	mov    %rdx,0x20(%rsp)
ffffffff811e03c4:	mov    %rdx,0x28(%rsp)
ffffffff811e03c9:	movl   $0x2,0x14(%rsp)
ffffffff811e03d1:	movl   $0x10,0x10(%rsp)
ffffffff811e03d9:	cmp    $0x40,%ebp
ffffffff811e03dc:	ja     ffffffff811e042e <try_charge_memcg+0x9e>
ffffffff811e03de:	pushf
ffffffff811e03df:	pop    %rax
ffffffff811e03e0:	cli
ffffffff811e03e1:	mov    %gs:0x7ee34dcf(%rip),%rsi        # 151b8 <this_cpu_off>
ffffffff811e03e9:	mov    0x2a868(%rsi),%edx
ffffffff811e03ef:	lea    0x2a860(%rsi),%rcx
ffffffff811e03f6:	mov    0x2a860(%rsi),%rsi
ffffffff811e03fd:	cmp    %rsi,%rbx
ffffffff811e0400:	jne    ffffffff811e0427 <try_charge_memcg+0x97>
ffffffff811e0402:	and    $0x200,%eax
ffffffff811e0407:	cmp    %ebp,%edx
ffffffff811e0409:	jb     ffffffff811e0420 <try_charge_memcg+0x90>
ffffffff811e040b:	sub    %ebp,%edx
ffffffff811e040d:	mov    %edx,0x8(%rcx)
ffffffff811e0410:	test   %rax,%rax
ffffffff811e0413:	jne    ffffffff811e041d <try_charge_memcg+0x8d>
ffffffff811e0415:	xor    %r13d,%r13d
ffffffff811e0418:	jmp    ffffffff811e0766 <try_charge_memcg+0x3d6>
ffffffff811e041d:	sti
ffffffff811e041e:	jmp    ffffffff811e0415 <try_charge_memcg+0x85>
ffffffff811e0420:	test   %rax,%rax
ffffffff811e0423:	je     ffffffff811e042e <try_charge_memcg+0x9e>
ffffffff811e0425:	jmp    ffffffff811e042d <try_charge_memcg+0x9d>
ffffffff811e0427:	bt     $0x9,%eax
ffffffff811e042b:	jae    ffffffff811e042e <try_charge_memcg+0x9e>
ffffffff811e042d:	sti
ffffffff811e042e:	call   ffffffff811dd437 <do_memsw_account>
ffffffff811e0433:	mov    %r13d,%ecx
ffffffff811e0436:	mov    %rcx,0x8(%rsp)
ffffffff811e043b:	test   %al,%al
ffffffff811e043d:	jne    ffffffff811e0459 <try_charge_memcg+0xc9>
ffffffff811e043f:	lea    0x100(%rbx),%rdi
ffffffff811e0446:	lea    0x20(%rsp),%rdx
ffffffff811e044b:	mov    %r13d,%esi
ffffffff811e044e:	call   ffffffff811dd011 <page_counter_try_charge>
ffffffff811e0453:	test   %al,%al
ffffffff811e0455:	je     ffffffff811e04a4 <try_charge_memcg+0x114>
ffffffff811e0457:	jmp    ffffffff811e0489 <try_charge_memcg+0xf9>
ffffffff811e0459:	lea    0x200(%rbx),%rdi
ffffffff811e0460:	lea    0x20(%rsp),%rdx
ffffffff811e0465:	mov    %r13d,%esi
ffffffff811e0468:	call   ffffffff811dd011 <page_counter_try_charge>
ffffffff811e046d:	test   %al,%al
ffffffff811e046f:	jne    ffffffff811e043f <try_charge_memcg+0xaf>
ffffffff811e0471:	mov    0x20(%rsp),%rax
ffffffff811e0476:	sub    $0x200,%rax
ffffffff811e047c:	mov    %rax,0x8(%rsp)
ffffffff811e0481:	xor    %eax,%eax
ffffffff811e0483:	mov    %eax,0x14(%rsp)
ffffffff811e0487:	jmp    ffffffff811e04cc <try_charge_memcg+0x13c>
ffffffff811e0489:	cmp    %r13d,%ebp
ffffffff811e048c:	jae    ffffffff811e06ae <try_charge_memcg+0x31e>
ffffffff811e0492:	mov    %r13d,%esi
ffffffff811e0495:	mov    %rbx,%rdi
ffffffff811e0498:	sub    %ebp,%esi
ffffffff811e049a:	call   ffffffff811ddf56 <refill_stock>
ffffffff811e049f:	jmp    ffffffff811e06ae <try_charge_memcg+0x31e>
ffffffff811e04a4:	call   ffffffff811dd437 <do_memsw_account>
ffffffff811e04a9:	test   %al,%al
ffffffff811e04ab:	je     ffffffff811e04bc <try_charge_memcg+0x12c>
ffffffff811e04ad:	lea    0x200(%rbx),%rdi
ffffffff811e04b4:	mov    %r13d,%esi
ffffffff811e04b7:	call   ffffffff811dd0aa <page_counter_uncharge>
ffffffff811e04bc:	mov    0x20(%rsp),%rax
ffffffff811e04c1:	sub    $0x100,%rax
ffffffff811e04c7:	mov    %rax,0x8(%rsp)
ffffffff811e04cc:	cmp    %r13d,%ebp
ffffffff811e04cf:	jae    ffffffff811e04d9 <try_charge_memcg+0x149>
ffffffff811e04d1:	mov    %ebp,%r13d
ffffffff811e04d4:	jmp    ffffffff811e03d9 <try_charge_memcg+0x49>
ffffffff811e04d9:	mov    %gs:0x7ee4bd9f(%rip),%rax        # 2c280 <pcpu_hot>
ffffffff811e04e1:	testb  $0x8,0x2d(%rax)
ffffffff811e04e5:	jne    ffffffff811e0667 <try_charge_memcg+0x2d7>
ffffffff811e04eb:	btl    $0xa,0x4(%rsp)
ffffffff811e04f1:	jae    ffffffff811e0657 <try_charge_memcg+0x2c7>
ffffffff811e04f7:	mov    0x628(%rax),%rax
ffffffff811e04fe:	mov    0x368(%rax),%rax
ffffffff811e0505:	test   %rax,%rax
ffffffff811e0508:	je     ffffffff811e051b <try_charge_memcg+0x18b>
ffffffff811e050a:	mov    0x418(%rax),%rax
ffffffff811e0511:	bt     $0x15,%eax
ffffffff811e0515:	jb     ffffffff811e0657 <try_charge_memcg+0x2c7>
ffffffff811e051b:	mov    0x8(%rsp),%rdi
ffffffff811e0520:	mov    $0x2,%esi
ffffffff811e0525:	call   ffffffff811dd9fe <memcg_memory_event>
ffffffff811e052a:	lea    0x28(%rsp),%rdi
ffffffff811e052f:	call   ffffffff810885ad <psi_memstall_enter>
ffffffff811e0534:	mov    0x14(%rsp),%ecx
ffffffff811e0538:	mov    0x4(%rsp),%edx
ffffffff811e053c:	mov    %ebp,%eax
ffffffff811e053e:	mov    0x8(%rsp),%rdi
ffffffff811e0543:	xor    %r8d,%r8d
ffffffff811e0546:	mov    %ebp,%esi
ffffffff811e0548:	mov    %rax,0x18(%rsp)
ffffffff811e054d:	call   ffffffff8118301c <try_to_free_mem_cgroup_pages>
ffffffff811e0552:	lea    0x28(%rsp),%rdi
ffffffff811e0557:	mov    %rax,%r12
ffffffff811e055a:	call   ffffffff8108860f <psi_memstall_leave>
ffffffff811e055f:	mov    0x8(%rsp),%rdi
ffffffff811e0564:	call   ffffffff811dd443 <mem_cgroup_margin>
ffffffff811e0569:	mov    %ebp,%ecx
ffffffff811e056b:	cmp    %rcx,%rax
ffffffff811e056e:	jb     ffffffff811e0578 <try_charge_memcg+0x1e8>
ffffffff811e0570:	mov    $0x1,%r12b
ffffffff811e0573:	jmp    ffffffff811e03d9 <try_charge_memcg+0x49>
ffffffff811e0578:	test   %r15b,%r15b
ffffffff811e057b:	jne    ffffffff811e0592 <try_charge_memcg+0x202>
ffffffff811e057d:	mov    0x8(%rsp),%rdi
ffffffff811e0582:	mov    $0x1,%r12b
ffffffff811e0585:	mov    $0x1,%r15b
ffffffff811e0588:	call   ffffffff811dfe9f <drain_all_stock>
ffffffff811e058d:	jmp    ffffffff811e03d9 <try_charge_memcg+0x49>
ffffffff811e0592:	btl    $0x10,0x4(%rsp)
ffffffff811e0598:	jae    ffffffff811e05b6 <try_charge_memcg+0x226>
ffffffff811e059a:	mov    $0xfffffff4,%r13d
ffffffff811e05a0:	mov    %r15d,%r12d
ffffffff811e05a3:	testl  $0x8020,0x4(%rsp)
ffffffff811e05ab:	jne    ffffffff811e0667 <try_charge_memcg+0x2d7>
ffffffff811e05b1:	jmp    ffffffff811e0766 <try_charge_memcg+0x3d6>
ffffffff811e05b6:	test   %r12,%r12
ffffffff811e05b9:	setne  %r12b
ffffffff811e05bd:	cmp    $0x8,%ebp
ffffffff811e05c0:	setbe  %al
ffffffff811e05c3:	and    %al,%r12b
ffffffff811e05c6:	je     ffffffff811e05d0 <try_charge_memcg+0x240>
ffffffff811e05c8:	mov    %r12d,%r15d
ffffffff811e05cb:	jmp    ffffffff811e03d9 <try_charge_memcg+0x49>
ffffffff811e05d0:	cmpl   $0x0,0x10(%rsp)
ffffffff811e05d5:	je     ffffffff811e05e3 <try_charge_memcg+0x253>
ffffffff811e05d7:	decl   0x10(%rsp)
ffffffff811e05db:	mov    %r15d,%r12d
ffffffff811e05de:	jmp    ffffffff811e03d9 <try_charge_memcg+0x49>
ffffffff811e05e3:	btl    $0xe,0x4(%rsp)
ffffffff811e05e9:	jb     ffffffff811e059a <try_charge_memcg+0x20a>
ffffffff811e05eb:	test   %r14b,%r14b
ffffffff811e05ee:	jne    ffffffff811e0613 <try_charge_memcg+0x283>
ffffffff811e05f0:	mov    0x18(%rsp),%rax
ffffffff811e05f5:	or     $0xffffffff,%edx
ffffffff811e05f8:	shl    $0xc,%rax
ffffffff811e05fc:	dec    %rax
ffffffff811e05ff:	shr    $0xc,%rax
ffffffff811e0603:	bsr    %rax,%rdx
ffffffff811e0607:	lea    0x1(%rdx),%r12d
ffffffff811e060b:	cmp    $0x3,%r12d
ffffffff811e060f:	jg     ffffffff811e059a <try_charge_memcg+0x20a>
ffffffff811e0611:	jmp    ffffffff811e0621 <try_charge_memcg+0x291>
ffffffff811e0613:	call   ffffffff811de5f4 <task_is_dying>
ffffffff811e0618:	test   %al,%al
ffffffff811e061a:	je     ffffffff811e05f0 <try_charge_memcg+0x260>
ffffffff811e061c:	jmp    ffffffff811e059a <try_charge_memcg+0x20a>
ffffffff811e0621:	mov    0x8(%rsp),%rdi
ffffffff811e0626:	mov    $0x3,%esi
ffffffff811e062b:	call   ffffffff811dd9fe <memcg_memory_event>
ffffffff811e0630:	mov    0x4(%rsp),%esi
ffffffff811e0634:	mov    0x8(%rsp),%rdi
ffffffff811e0639:	mov    %r12d,%edx
ffffffff811e063c:	call   ffffffff811de636 <mem_cgroup_out_of_memory>
ffffffff811e0641:	mov    %eax,%r14d
ffffffff811e0644:	test   %al,%al
ffffffff811e0646:	je     ffffffff811e059a <try_charge_memcg+0x20a>
ffffffff811e064c:	mov    %r14d,%r12d
ffffffff811e064f:	mov    %r14d,%r15d
ffffffff811e0652:	jmp    ffffffff811e03d1 <try_charge_memcg+0x41>
ffffffff811e0657:	mov    $0xfffffff4,%r13d
ffffffff811e065d:	testl  $0x8020,0x4(%rsp)
ffffffff811e0665:	je     ffffffff811e0691 <try_charge_memcg+0x301>
ffffffff811e0667:	lea    0x100(%rbx),%rdi
ffffffff811e066e:	mov    %rbp,%rsi
ffffffff811e0671:	call   ffffffff811dcfc6 <page_counter_charge>
ffffffff811e0676:	call   ffffffff811dd437 <do_memsw_account>
ffffffff811e067b:	test   %al,%al
ffffffff811e067d:	je     ffffffff811e068e <try_charge_memcg+0x2fe>
ffffffff811e067f:	lea    0x200(%rbx),%rdi
ffffffff811e0686:	mov    %rbp,%rsi
ffffffff811e0689:	call   ffffffff811dcfc6 <page_counter_charge>
ffffffff811e068e:	xor    %r13d,%r13d
ffffffff811e0691:	test   %r12b,%r12b
ffffffff811e0694:	jne    ffffffff811e0766 <try_charge_memcg+0x3d6>
ffffffff811e069a:	mov    0x8(%rsp),%rdi
ffffffff811e069f:	mov    $0x2,%esi
ffffffff811e06a4:	call   ffffffff811dd9fe <memcg_memory_event>
ffffffff811e06a9:	jmp    ffffffff811e0766 <try_charge_memcg+0x3d6>
ffffffff811e06ae:	mov    %gs:0x7ee4bbd3(%rip),%eax        # 2c288 <pcpu_hot+0x8>
ffffffff811e06b5:	and    $0xff0100,%eax
ffffffff811e06ba:	mov    0x100(%rbx),%rdx
ffffffff811e06c1:	mov    0x1d8(%rbx),%rcx
ffffffff811e06c8:	mov    0x200(%rbx),%rsi
ffffffff811e06cf:	mov    0x2d8(%rbx),%rdi
ffffffff811e06d6:	test   %eax,%eax
ffffffff811e06d8:	je     ffffffff811e06f9 <try_charge_memcg+0x369>
ffffffff811e06da:	cmp    %rdx,%rcx
ffffffff811e06dd:	jae    ffffffff811e0721 <try_charge_memcg+0x391>
ffffffff811e06df:	mov    0x87a552(%rip),%rsi        # ffffffff81a5ac38 <system_percpu_wq>
ffffffff811e06e6:	lea    0x328(%rbx),%rdx
ffffffff811e06ed:	mov    $0x8,%edi
ffffffff811e06f2:	call   ffffffff8105e514 <queue_work_on>
ffffffff811e06f7:	jmp    ffffffff811e072d <try_charge_memcg+0x39d>
ffffffff811e06f9:	cmp    %rdx,%rcx
ffffffff811e06fc:	jb     ffffffff811e0703 <try_charge_memcg+0x373>
ffffffff811e06fe:	cmp    %rsi,%rdi
ffffffff811e0701:	jae    ffffffff811e0721 <try_charge_memcg+0x391>
ffffffff811e0703:	mov    %gs:0x7ee4bb75(%rip),%rdi        # 2c280 <pcpu_hot>
ffffffff811e070b:	add    %r13d,0x8e8(%rdi)
ffffffff811e0712:	lock btsq $0x1,(%rdi)
ffffffff811e0718:	jb     ffffffff811e072d <try_charge_memcg+0x39d>
ffffffff811e071a:	call   ffffffff8106e501 <kick_process>
ffffffff811e071f:	jmp    ffffffff811e072d <try_charge_memcg+0x39d>
ffffffff811e0721:	mov    0xc0(%rbx),%rbx
ffffffff811e0728:	test   %rbx,%rbx
ffffffff811e072b:	jne    ffffffff811e06ba <try_charge_memcg+0x32a>
ffffffff811e072d:	mov    %gs:0x7ee4bb4b(%rip),%rax        # 2c280 <pcpu_hot>
ffffffff811e0735:	cmpl   $0x40,0x8e8(%rax)
ffffffff811e073c:	jbe    ffffffff811e0415 <try_charge_memcg+0x85>
ffffffff811e0742:	testb  $0x8,0x2d(%rax)
ffffffff811e0746:	jne    ffffffff811e0415 <try_charge_memcg+0x85>
ffffffff811e074c:	btl    $0xa,0x4(%rsp)
ffffffff811e0752:	jae    ffffffff811e0415 <try_charge_memcg+0x85>
ffffffff811e0758:	mov    0x4(%rsp),%edi
ffffffff811e075c:	call   ffffffff811e01a3 <mem_cgroup_handle_over_high>
ffffffff811e0761:	jmp    ffffffff811e0415 <try_charge_memcg+0x85>
ffffffff811e0766:	add    $0x30,%rsp
ffffffff811e076a:	mov    %r13d,%eax
ffffffff811e076d:	pop    %rbx
ffffffff811e076e:	pop    %rbp
ffffffff811e076f:	pop    %r12
ffffffff811e0771:	pop    %r13
ffffffff811e0773:	pop    %r14
ffffffff811e0775:	pop    %r15
ffffffff811e0777:	ret

